// The one place that turns errors into `{result: "error", msg, code}` responses, and the headers
// every response carries.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, notFound } from '../lib/errors.ts';
import type { Logger } from '../log.ts';
import type { RouteConfig } from './route.ts';

/**
 * A 401 asks for Basic credentials only where they are what the route reads: a browser meeting
 * the challenge under /json (or on an image) would show its own password box.
 */
function challengesBasic(request: FastifyRequest): boolean {
  const authBy = (request.routeOptions.config as Partial<RouteConfig> | undefined)?.authBy;
  if (authBy === 'session') return false;
  if (authBy === 'basic-or-session') return request.headers.authorization !== undefined;
  return true;
}

/** An error's answer: status, headers besides the content type, and the JSON envelope. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/**
 * The answer to an error a request ended with; `challengeBasic`: a 401 asks for Basic
 * credentials. An unexpected error is logged (with the request's `url` and `method`) and is a 500.
 */
export function errorAnswer(err: FastifyError | ApiError | Error, challengeBasic: boolean, log: Logger, url: string, method: string): ErrorAnswer {
  if (err instanceof ApiError) {
    const headers: Record<string, string> = {};
    if (err.status === 401 && challengeBasic) headers['www-authenticate'] = 'Basic realm="parley"';
    if (err.status === 429) headers['retry-after'] = String(err.extra['retry-after']);
    return { status: err.status, headers, body: { result: 'error', msg: err.message, code: err.code, ...err.extra } };
  }
  // A number past PostgreSQL's integer range that a route did not bound itself (SQLite has
  // 64-bit integers): it names no row, so it is the client's error, not the server's.
  if ((err as { code?: unknown }).code === '22003') {
    return { status: 400, headers: {}, body: { result: 'error', msg: 'A number in the request is out of range', code: 'BAD_REQUEST' } };
  }
  // A NUL character that a route did not refuse itself (PostgreSQL text cannot hold one).
  if ((err as { code?: unknown }).code === '22021') {
    return { status: 400, headers: {}, body: { result: 'error', msg: 'A string in the request contains a null byte', code: 'BAD_REQUEST' } };
  }
  const fe = err as FastifyError;
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status === 413 || fe.code === 'FST_REQ_FILE_TOO_LARGE' || fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { status: 413, headers: {}, body: { result: 'error', msg: 'Request body too large', code: 'BAD_REQUEST' } };
  }
  if (status >= 400 && status < 500) {
    return { status, headers: {}, body: { result: 'error', msg: fe.message || 'Bad request', code: 'BAD_REQUEST' } };
  }
  log.error({ err, url, method }, 'request failed');
  return { status: 500, headers: {}, body: { result: 'error', msg: 'Internal server error', code: 'BAD_REQUEST' } };
}

export function installErrorHandlers(fastify: FastifyInstance, log: Logger): void {
  fastify.setErrorHandler((err: FastifyError | ApiError | Error, request, reply) => {
    const { status, headers, body } = errorAnswer(err, challengesBasic(request), log, request.url, request.method);
    return reply.code(status).headers(headers).send(body);
  });
  fastify.setNotFoundHandler((request, reply) => {
    const e = notFound();
    return reply.code(e.status).send({ result: 'error', msg: e.message, code: e.code });
  });
}

/**
 * Fastify's router answers some URLs before any route or error handler sees them (`frameworkErrors`):
 * bad percent-encoding, and a path parameter past `maxParamLength` (see app.ts).
 */
export function frameworkErrorHandler(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const msg = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long' : err.code === 'FST_ERR_BAD_URL' ? 'The URL is not validly encoded' : 'Bad request';
  return reply.code(400).send({ result: 'error', msg, code: 'BAD_REQUEST' });
}

/**
 * Requests Node's HTTP parser refuses (malformed, headers too large, too slow) never reach fastify:
 * they are answered on the socket, in the API's shape as everything else.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, msg] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request headers too large']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request timed out']
        : [400, 'Malformed HTTP request'];
  const body = JSON.stringify({ result: 'error', msg, code: status === 408 ? 'REQUEST_TIMEOUT' : 'BAD_REQUEST' });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(err);
}

/**
 * Every answer, errors and files included: browsers must not guess a type other than the one
 * sent (an uploaded file or a JSON answer read as HTML), and links followed out of the app tell
 * the other site at most this server's origin. Set on the raw response before fastify sees the
 * request, so that the answers fastify gives before routing (a malformed URL) have them too;
 * headers a route sets win over these (node merges them, the route's first).
 */
export function installSecurityHeaders(fastify: FastifyInstance): void {
  fastify.server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('referrer-policy', 'strict-origin-when-cross-origin');
  });
}
