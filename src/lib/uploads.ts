// Uploaded files on disk: receiving a multipart file as a stream (never whole in memory), file
// names, paths and the content types files are served with.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { ApiError, badRequest } from './errors.ts';
import type { MultipartFile } from '@fastify/multipart';
import { multipartParts } from './multipart.ts';

export interface ReceivedFile {
  /** Where the bytes are until the upload is recorded; the caller moves or removes it. */
  tempPath: string;
  size: number;
  fileName: string;
  contentType: string;
}

const MAX_NAME_LENGTH = 128;

/** A file name safe in a URL path segment and on any file system. */
export function sanitizeFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  let clean = base
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[.-]+/, '')
    .replace(/-+$/, '');
  if (clean.length > MAX_NAME_LENGTH) {
    const ext = path.extname(clean).slice(0, 16);
    clean = clean.slice(0, MAX_NAME_LENGTH - ext.length) + ext;
  }
  return clean === '' ? 'uploaded-file' : clean;
}

export function newPathId(realmId: number, fileName: string): string {
  return `${realmId}/${randomBytes(18).toString('base64url')}/${sanitizeFileName(fileName)}`;
}

export function uploadUrl(pathId: string): string {
  return '/user_uploads/' + pathId.split('/').map(encodeURIComponent).join('/');
}

/** The file's place on disk; refuses anything that would leave the uploads folder. */
export function storedFilePath(config: Config, pathId: string): string {
  const root = path.resolve(config.uploadsDir, 'files');
  const full = path.resolve(root, pathId);
  if (!full.startsWith(root + path.sep)) throw badRequest('Invalid file path');
  return full;
}

const MIME_RE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;

/** Types a browser may show in place: none of them can run script from our origin. */
const INLINE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'audio/webm',
  'audio/mp4',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'application/pdf',
  'text/plain',
]);

/** The client's declared type, if it looks like a media type at all. */
export function declaredContentType(mimetype: string | undefined): string {
  const t = (mimetype ?? '').split(';')[0]!.trim().toLowerCase();
  return MIME_RE.test(t) ? t : 'application/octet-stream';
}

/** How a stored file is served: harmless types inline, everything else as a download. */
export function servingHeaders(contentType: string, fileName: string): Record<string, string> {
  const inline = INLINE_TYPES.has(contentType);
  const type = inline ? (contentType === 'text/plain' ? 'text/plain; charset=utf-8' : contentType) : 'application/octet-stream';
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return {
    'content-type': type,
    'content-disposition': `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'private, max-age=86400',
  };
}

export const tooLarge = (limitMib: number): ApiError =>
  new ApiError(`Uploaded file is larger than the allowed limit of ${limitMib} MiB`, 'BAD_REQUEST', 413);

/**
 * Streams the request's first file part to a temporary file. The multipart limit (set in app.ts
 * from the same setting) truncates an oversized file; it is then removed and refused. The parts
 * are read to the end: a body cut short shows only there, as the parser's error.
 */
export async function receiveFile(config: Config, request: FastifyRequest): Promise<ReceivedFile> {
  if (!request.isMultipart()) throw badRequest('You must specify a file to upload');
  const tmpDir = path.join(config.uploadsDir, 'tmp');
  await fs.promises.mkdir(tmpDir, { recursive: true });
  let received: ReceivedFile | null = null;
  try {
    for await (const part of multipartParts(request)) {
      if (part.type !== 'file') continue;
      if (received) part.file.resume();
      else received = await receivePart(config, tmpDir, part);
    }
  } catch (err) {
    if (received) await fs.promises.rm(received.tempPath, { force: true });
    throw err;
  }
  if (!received) throw badRequest('You must specify a file to upload');
  return received;
}

async function receivePart(config: Config, tmpDir: string, part: MultipartFile): Promise<ReceivedFile> {
  // The parser destroys the stream of a part cut short, maybe before it is handed over; a
  // pipeline from an already destroyed stream would never settle.
  if (part.file.destroyed) throw badRequest('Malformed multipart body');
  const tempPath = path.join(tmpDir, randomBytes(16).toString('hex'));
  const out = fs.createWriteStream(tempPath, { flags: 'wx' });
  try {
    await pipeline(part.file, out);
    if (part.file.truncated) throw tooLarge(config.maxFileUploadSizeMib);
  } catch (err) {
    await fs.promises.rm(tempPath, { force: true });
    if (err instanceof ApiError) throw err;
    throw badRequest('The upload was interrupted');
  }
  return { tempPath, size: out.bytesWritten, fileName: part.filename || 'uploaded-file', contentType: declaredContentType(part.mimetype) };
}

/** Moves a received file to its permanent place. */
export async function storeFile(config: Config, file: ReceivedFile, pathId: string): Promise<string> {
  const dest = storedFilePath(config, pathId);
  await fs.promises.mkdir(path.dirname(dest), { recursive: true });
  await fs.promises.rename(file.tempPath, dest);
  return dest;
}

/** Removes a stored file and the folder made for it. */
export async function removeStoredFile(config: Config, pathId: string): Promise<void> {
  const file = storedFilePath(config, pathId);
  await fs.promises.rm(file, { force: true });
  await fs.promises.rmdir(path.dirname(file)).catch(() => undefined);
}

/**
 * Removes temporary files an interrupted process left behind. Only old ones: with several
 * processes on a shared uploads folder, a young one may be another process's upload under way.
 */
export async function removeStaleTempFiles(config: Config, olderThanSeconds = 86400): Promise<number> {
  const tmpDir = path.join(config.uploadsDir, 'tmp');
  const entries = await fs.promises.readdir(tmpDir).catch(() => [] as string[]);
  const cutoff = Date.now() - olderThanSeconds * 1000;
  let removed = 0;
  for (const name of entries) {
    const file = path.join(tmpDir, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (stat?.isFile() && stat.mtimeMs < cutoff) {
      await fs.promises.rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}

/** The image's file extension from its first bytes; other formats are refused. */
export function imageExtension(data: Buffer): string {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.length >= 6 && (data.subarray(0, 6).toString('latin1') === 'GIF87a' || data.subarray(0, 6).toString('latin1') === 'GIF89a')) return 'gif';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpg';
  if (data.length >= 12 && data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  throw badRequest('Invalid image format');
}

/** Writes a new file (never over an existing one) and waits for the disk. */
export async function writeDurably(file: string, data: Buffer): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const handle = await fs.promises.open(file, 'wx');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
