// Collects parameter values from the query string and from urlencoded, JSON or multipart bodies.
import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { MAX_JSON_DEPTH, tooDeep, type RawParams } from './params.ts';
import { ApiError, badRequest } from '../lib/errors.ts';
import { multipartError, multipartParts } from '../lib/multipart.ts';

/** Whether a parsed JSON value nests deeper than `max`; iterative, as the value may be any depth. */
function valueTooDeep(value: object, max: number): boolean {
  const stack: [object, number][] = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [v, depth] = top;
    if (depth > max) return true;
    for (const x of Object.values(v)) if (typeof x === 'object' && x !== null) stack.push([x as object, depth + 1]);
  }
  return false;
}

function addValues(into: Map<string, string>, source: unknown): void {
  if (typeof source !== 'object' || source === null) return;
  for (const [k, v] of Object.entries(source as Record<string, unknown>)) {
    if (typeof v === 'string') into.set(k, v);
    else if (Array.isArray(v) && v.length > 0 && typeof v[v.length - 1] === 'string') into.set(k, v[v.length - 1] as string);
    else if (typeof v === 'number' || typeof v === 'boolean') into.set(k, String(v));
    else if (typeof v === 'object' && v !== null) {
      // A JSON request body: its values are re-encoded for the parameter decoders, which
      // JSON.stringify cannot do past the stack's depth.
      if (valueTooDeep(v, MAX_JSON_DEPTH)) throw tooDeep(k);
      into.set(k, JSON.stringify(v));
    }
  }
}

/**
 * The query's and body's parameter values. A multipart body's files are drained, unless the
 * route takes one (`fileMaxBytes`): then it is read into `file` (at most one, at most that size).
 */
export async function readRawParams(request: FastifyRequest, streamBody: boolean, fileMaxBytes?: number): Promise<RawParams & { file: Buffer | null }> {
  const values = new Map<string, string>();
  let file: Buffer | null = null;
  addValues(values, request.query);
  if (!streamBody) {
    if (request.isMultipart()) {
      let files = 0;
      for await (const part of multipartParts(request)) {
        if (part.type === 'field') {
          if (typeof part.value === 'string') values.set(part.fieldname, part.value);
        } else if (fileMaxBytes !== undefined) {
          if (++files > 1) throw badRequest('You must upload exactly one file.');
          file = await bufferFile(part, fileMaxBytes);
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
  return { values, pathValues: (request.params ?? {}) as Record<string, string>, file };
}

/**
 * A file part's bytes, refusing more than `maxBytes` (the rest is read and dropped); a body cut
 * short while it is read is the client's error too (see multipartError).
 */
async function bufferFile(part: MultipartFile, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    }
  } catch (err) {
    throw multipartError(err);
  }
  if (size > maxBytes || part.file.truncated) {
    throw badRequest(`Uploaded file is larger than the allowed limit of ${maxBytes / (1024 * 1024)} MiB`);
  }
  return Buffer.concat(chunks);
}

/** Reads the request's one file, refusing more than `maxBytes`; null when it carries none. */
export async function readOneFile(request: FastifyRequest, maxBytes: number): Promise<Buffer | null> {
  if (!request.isMultipart()) return null;
  let found: Buffer | null = null;
  let files = 0;
  for await (const part of multipartParts(request)) {
    if (part.type !== 'file') continue;
    files++;
    found = await bufferFile(part, maxBytes);
  }
  if (files > 1) throw badRequest('You must upload exactly one file.');
  return found;
}
