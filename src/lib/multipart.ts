// Reading a multipart request's parts, with the parser's errors made the client's.
import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { ApiError, badRequest } from './errors.ts';

/**
 * A multipart body the parser cannot read (no boundary, cut short, bad part headers) is the
 * client's error. The plugin's own limit errors carry their status and pass through.
 */
export function multipartError(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  const status = (err as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return err;
  return badRequest('Malformed multipart body');
}

/** The parts of a multipart request, with the parser's errors made 400s (see multipartError). */
export async function* multipartParts(request: FastifyRequest): AsyncGenerator<Multipart> {
  try {
    for await (const part of request.parts()) yield part;
  } catch (err) {
    throw multipartError(err);
  }
}
