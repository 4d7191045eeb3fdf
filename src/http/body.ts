// Collects parameter values from the query string and from urlencoded or multipart bodies.
import type { FastifyRequest } from 'fastify';
import type { RawParams } from './params.ts';
import { ApiError } from '../lib/errors.ts';

function addValues(into: Map<string, string>, source: unknown): void {
  if (typeof source !== 'object' || source === null) return;
  for (const [k, v] of Object.entries(source as Record<string, unknown>)) {
    if (typeof v === 'string') into.set(k, v);
    else if (Array.isArray(v) && v.length > 0 && typeof v[v.length - 1] === 'string') into.set(k, v[v.length - 1] as string);
    else if (typeof v === 'number' || typeof v === 'boolean') into.set(k, String(v));
    else if (typeof v === 'object' && v !== null) into.set(k, JSON.stringify(v)); // a JSON request body
  }
}

export async function readRawParams(request: FastifyRequest, streamBody: boolean): Promise<RawParams> {
  const values = new Map<string, string>();
  addValues(values, request.query);
  if (!streamBody) {
    if (request.isMultipart()) {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (typeof part.value === 'string') values.set(part.fieldname, part.value);
        } else {
          // A file where none is expected: drain it so the request completes.
          part.file.resume();
        }
      }
    } else if (typeof request.body === 'string') {
      throw new ApiError('Request body must be form-encoded', 'BAD_REQUEST');
    } else {
      addValues(values, request.body);
    }
  }
  return { values, pathValues: (request.params ?? {}) as Record<string, string> };
}
