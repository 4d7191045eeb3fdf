// Serves the built browser app (WEB_DIR, normally web/dist): index.html, hashed assets that never
// change, and the other files at its root. Files are read once and kept in memory with their
// gzip and brotli forms (made on first demand); a file that changes on disk is read again.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Rendered messages carry style attributes (KaTeX); scripts stay 'self' only.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';
const ROOT_FILE = 'public, max-age=3600';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
  '.wasm': 'application/wasm',
};
/** Worth compressing: text formats (images, fonts and sounds are compressed already). */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.webmanifest', '.txt', '.svg', '.ico', '.ttf', '.wasm']);
/** Kept files are dropped all at once past this (a watch build leaves old hashed files behind). */
const MAX_KEPT_BYTES = 64 * 1024 * 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

type Encoding = 'br' | 'gzip';

interface WebFile {
  mtimeMs: number;
  size: number;
  body: Buffer;
  type: string;
  etag: string;
  lastModified: string;
  compressible: boolean;
  encoded: Partial<Record<Encoding, Promise<Buffer | null>>>;
}

/**
 * The path below the app's folder that a request's raw URL names, or null: every segment is
 * decoded on its own, and one that decodes to a separator, `..`, a dotfile or nothing is refused.
 */
export function webPath(url: string): string | null {
  const q = url.indexOf('?');
  const segments = (q < 0 ? url : url.slice(0, q)).split('/').slice(1);
  const out: string[] = [];
  for (const segment of segments) {
    let s: string;
    try {
      s = decodeURIComponent(segment);
    } catch {
      return null;
    }
    if (s === '' || s.startsWith('.') || /[/\\\0]/.test(s)) return null;
    out.push(s);
  }
  return out.length > 0 ? out.join('/') : null;
}

/** The preferred encoding the client accepts (q=0 refuses one). */
function acceptedEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const accepted = new Set<string>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...opts] = part.trim().split(';');
    const q = opts.map((o) => o.trim()).find((o) => o.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.add(name!.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

const NOT_BUILT = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Parley</title></head>
<body>
<h1>Parley</h1>
<p>The web client has not been built yet. Run <code>npm run build:web</code> in Parley's folder,
then reload this page.</p>
<p>The API is served under <code>/api/v1</code> all the same.</p>
</body>
</html>
`;

export class WebFiles {
  readonly #dir: string;
  readonly #kept = new Map<string, WebFile>();
  #keptBytes = 0;

  constructor(dir: string) {
    this.#dir = path.resolve(dir);
  }

  /** The file at this relative path (from webPath), read again if it changed on disk; null if none. */
  async file(rel: string): Promise<WebFile | null> {
    const full = path.join(this.#dir, rel);
    if (!full.startsWith(this.#dir + path.sep)) return null;
    const stat = await fs.promises.stat(full).catch(() => null);
    if (!stat?.isFile()) return null;
    const kept = this.#kept.get(full);
    if (kept && kept.mtimeMs === stat.mtimeMs && kept.size === stat.size) return kept;
    // A symbolic link out of the folder is not served.
    const [real, realDir] = await Promise.all([fs.promises.realpath(full), fs.promises.realpath(this.#dir)]);
    if (!real.startsWith(realDir + path.sep)) return null;
    const body = await fs.promises.readFile(full);
    const ext = path.extname(full).toLowerCase();
    const file: WebFile = {
      mtimeMs: stat.mtimeMs,
      size: stat.size,
      body,
      type: TYPES[ext] ?? 'application/octet-stream',
      etag: `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      lastModified: stat.mtime.toUTCString(),
      compressible: COMPRESSIBLE.has(ext) && body.length >= 256,
      encoded: {},
    };
    if (this.#keptBytes + body.length > MAX_KEPT_BYTES) {
      this.#kept.clear();
      this.#keptBytes = 0;
    }
    this.#kept.set(full, file);
    this.#keptBytes += body.length;
    return file;
  }

  /** The file's body in this encoding, made once; null when it would not be smaller. */
  encoded(file: WebFile, encoding: Encoding): Promise<Buffer | null> {
    let body = file.encoded[encoding];
    if (!body) {
      const compress =
        encoding === 'br'
          ? brotli(file.body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: file.body.length } })
          : gzip(file.body, { level: 9 });
      body = compress.then((b) => (b.length < file.body.length ? b : null));
      file.encoded[encoding] = body;
      this.#keptBytes += file.body.length / 2;
    }
    return body;
  }
}

async function send(files: WebFiles, request: FastifyRequest, reply: FastifyReply, file: WebFile, cacheControl: string, html: boolean): Promise<FastifyReply> {
  void reply.header('content-type', file.type).header('cache-control', cacheControl).header('etag', file.etag).header('x-content-type-options', 'nosniff');
  if (cacheControl !== IMMUTABLE) void reply.header('last-modified', file.lastModified);
  if (html) void reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
  if (file.compressible) void reply.header('vary', 'Accept-Encoding');
  if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
  const encoding = file.compressible ? acceptedEncoding(request.headers['accept-encoding']) : null;
  const encoded = encoding ? await files.encoded(file, encoding) : null;
  if (encoded) void reply.header('content-encoding', encoding!);
  return reply.code(200).send(encoded ?? file.body);
}

/**
 * Routes of the app: `/` and `/index.html`, `/assets/*`, and any other file of the folder (a GET
 * route of last resort, which hands paths under /api/ and /json/ to the API's 404 answer).
 */
export function registerWebApp(fastify: FastifyInstance, dir: string): void {
  const files = new WebFiles(dir);
  const index = async (request: FastifyRequest, reply: FastifyReply) => {
    const file = await files.file('index.html');
    if (file) return send(files, request, reply, file, 'no-cache', true);
    return reply
      .code(503)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .send(NOT_BUILT);
  };
  fastify.get('/', index);
  fastify.get('/index.html', index);
  fastify.get('/*', async (request, reply) => {
    const url = request.url;
    if (url.startsWith('/api/') || url.startsWith('/json/')) return reply.callNotFound();
    const rel = webPath(url);
    const file = rel ? await files.file(rel) : null;
    if (!file) return reply.callNotFound();
    const immutable = rel!.startsWith('assets/');
    return send(files, request, reply, file, immutable ? IMMUTABLE : ROOT_FILE, file.type.startsWith('text/html'));
  });
}
