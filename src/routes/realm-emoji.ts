// Custom emoji: listing, uploading, deactivating, and serving their images.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { p, path as inPath } from '../http/params.ts';
import { route, SENT } from '../http/route.ts';
import { multipartError } from '../http/body.ts';
import { realmEmojiByFile, realmEmojiRows } from '../db/queries/realm-emoji.ts';
import { ApiError, badRequest } from '../lib/errors.ts';
import { LIMITS } from '../lib/limits.ts';
import { presentRealmEmojiMap } from '../presenters/realm-emoji.ts';
import { checkAddRealmEmoji, checkRemoveRealmEmoji, emojiDir } from '../actions/realm-emoji.ts';

/** Reads the request's one file, refusing more than `maxBytes`; null when it carries none. */
async function readOneFile(request: FastifyRequest, maxBytes: number): Promise<Buffer | null> {
  if (!request.isMultipart()) return null;
  try {
    return await readParts(request, maxBytes);
  } catch (err) {
    throw multipartError(err);
  }
}

async function readParts(request: FastifyRequest, maxBytes: number): Promise<Buffer | null> {
  let found: Buffer | null = null;
  let files = 0;
  for await (const part of request.parts()) {
    if (part.type !== 'file') continue;
    files++;
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    for await (const chunk of part.file as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) tooLarge = true;
      else chunks.push(chunk);
    }
    if (tooLarge || part.file.truncated) {
      throw badRequest(`Uploaded file is larger than the allowed limit of ${maxBytes / (1024 * 1024)} MiB`);
    }
    found = Buffer.concat(chunks);
  }
  if (files > 1) throw badRequest('You must upload exactly one file.');
  return found;
}

const CONTENT_TYPES: Record<string, string> = { png: 'image/png', gif: 'image/gif', jpg: 'image/jpeg', webp: 'image/webp' };

export const realmEmojiRoutes = [
  route({
    method: 'GET',
    path: '/realm/emoji',
    auth: 'user',
    params: {},
    async handler({ app, realm }) {
      return { emoji: presentRealmEmojiMap(await realmEmojiRows(app.db.kysely, realm.id)) };
    },
  }),
  route({
    method: 'POST',
    path: '/realm/emoji/{emoji_name}',
    auth: 'user',
    params: { emoji_name: inPath(p.string()) },
    streamBody: true,
    async handler({ app, realm, user, params, http }) {
      const image = await readOneFile(http, LIMITS.maxEmojiFileSizeMib * 1024 * 1024);
      await checkAddRealmEmoji(app, user, realm, params.emoji_name, image);
      return {};
    },
  }),
  route({
    method: 'DELETE',
    path: '/realm/emoji/{emoji_name}',
    auth: 'user',
    params: { emoji_name: inPath(p.string()) },
    async handler({ app, realm, user, params }) {
      await checkRemoveRealmEmoji(app, user, realm, params.emoji_name);
      return {};
    },
  }),
];

/** Paths outside /api/v1: custom emoji images, public like the reference's. */
export const realmEmojiFileRoutes = [
  route({
    method: 'GET',
    path: '/user_avatars/{realm_id}/emoji/images/{file_name}',
    auth: 'server',
    // Served as static files by the reference, outside its request limits.
    rateLimit: 'none',
    params: { realm_id: inPath(p.int({ min: 1 })), file_name: inPath(p.string()) },
    async handler({ app, params, reply }) {
      const row = /^[0-9a-f]+\.(png|gif|jpg|webp)$/.test(params.file_name)
        ? await realmEmojiByFile(app.db.kysely, params.realm_id, params.file_name)
        : undefined;
      if (!row) throw new ApiError('Not Found', 'NOT_FOUND', 404);
      const data = await fs.promises.readFile(path.join(emojiDir(app, row.realm_id), row.file_name)).catch(() => null);
      if (!data) throw new ApiError('Not Found', 'NOT_FOUND', 404);
      const ext = path.extname(row.file_name).slice(1);
      await reply
        .code(200)
        .header('content-type', CONTENT_TYPES[ext] ?? 'application/octet-stream')
        .header('cache-control', 'public, max-age=86400')
        .send(data);
      return SENT;
    },
  }),
];
