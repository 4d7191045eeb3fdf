// Custom emoji: listing, uploading, deactivating, and serving their images.
import fs from 'node:fs';
import path from 'node:path';
import { p, path as inPath } from '../http/params.ts';
import { route, SENT } from '../http/route.ts';
import { readOneFile } from '../http/body.ts';
import { realmEmojiByFile, realmEmojiRows } from '../db/queries/realm-emoji.ts';
import { notFound } from '../lib/errors.ts';
import { LIMITS } from '../lib/limits.ts';
import { presentRealmEmojiMap } from '../presenters/realm-emoji.ts';
import { checkAddRealmEmoji, checkRemoveRealmEmoji, emojiDir } from '../actions/realm-emoji.ts';

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
      if (!row) throw notFound();
      const data = await fs.promises.readFile(path.join(emojiDir(app, row.realm_id), row.file_name)).catch(() => null);
      if (!data) throw notFound();
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
