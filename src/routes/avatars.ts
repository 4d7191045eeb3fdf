// Uploaded avatars and the organization icon: setting and removing them, and serving the images.
import fs from 'node:fs';
import type { FastifyReply } from 'fastify';
import { optional, p, path as inPath } from '../http/params.ts';
import { route, SENT } from '../http/route.ts';
import { readOneFile } from '../http/body.ts';
import { userById } from '../db/queries/users.ts';
import { realmById } from '../db/queries/realms.ts';
import { badRequest, notFound } from '../lib/errors.ts';
import { LIMITS } from '../lib/limits.ts';
import { avatarFile, avatarSquares, checkSetAvatar, checkSetRealmIcon, realmIconFile } from '../actions/avatars.ts';

const MIB = 1024 * 1024;

export const avatarRoutes = [
  route({
    method: 'POST',
    path: '/users/me/avatar',
    auth: 'user',
    params: {},
    streamBody: true,
    async handler({ app, realm, user, http }) {
      const image = await readOneFile(http, LIMITS.maxAvatarFileSizeMib * MIB);
      if (!image) throw badRequest('You must upload exactly one avatar.');
      return { avatar_url: await checkSetAvatar(app, user, realm, user.id, await avatarSquares(image)) };
    },
  }),
  route({
    method: 'DELETE',
    path: '/users/me/avatar',
    auth: 'user',
    params: {},
    async handler({ app, realm, user }) {
      return { avatar_url: await checkSetAvatar(app, user, realm, user.id, null) };
    },
  }),
  route({
    method: 'POST',
    path: '/realm/icon',
    auth: 'user',
    params: {},
    streamBody: true,
    async handler({ app, realm, user, http }) {
      const image = await readOneFile(http, LIMITS.maxIconFileSizeMib * MIB);
      if (!image) throw badRequest('You must upload exactly one icon.');
      return { icon_url: await checkSetRealmIcon(app, user, realm, image) };
    },
  }),
  route({
    method: 'DELETE',
    path: '/realm/icon',
    auth: 'user',
    params: {},
    async handler({ app, realm, user }) {
      return { icon_url: await checkSetRealmIcon(app, user, realm, null) };
    },
  }),
];

/**
 * Sends a stored PNG. A URL naming the current version is cached for a year (every change makes
 * a new URL); any other may change at any time, so it is revalidated.
 */
async function sendPng(reply: FastifyReply, file: string, current: boolean): Promise<typeof SENT> {
  const data = await fs.promises.readFile(file).catch(() => null);
  if (!data) throw notFound();
  await reply
    .code(200)
    .header('content-type', 'image/png')
    .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'no-cache')
    .header('x-content-type-options', 'nosniff')
    .send(data);
  return SENT;
}

const fileParams = { realm_id: inPath(p.int({ min: 1 })), version: optional(p.string()) };

/** The images, outside /api/v1 and public like the reference's (an <img> sends no credentials). */
export const avatarFileRoutes = [
  route({
    method: 'GET',
    path: '/user_avatars/{realm_id}/{file_name}',
    auth: 'server',
    rateLimit: 'none',
    params: { ...fileParams, file_name: inPath(p.string()) },
    async handler({ app, params, reply }) {
      const m = /^([1-9][0-9]{0,9})(-medium)?\.png$/.exec(params.file_name);
      const userId = m ? Number(m[1]) : 0;
      const user = m && userId <= 2 ** 31 - 1 ? await userById(app.db.kysely, params.realm_id, userId) : undefined;
      if (!user || user.avatar_source !== 'U') throw notFound();
      return sendPng(reply, avatarFile(app, user.realm_id, user.id, m![2] !== undefined), params.version === String(user.avatar_version));
    },
  }),
  route({
    method: 'GET',
    path: '/user_avatars/{realm_id}/realm/icon.png',
    auth: 'server',
    rateLimit: 'none',
    params: fileParams,
    async handler({ app, params, reply }) {
      const realm = await realmById(app.db.kysely, params.realm_id);
      if (!realm || realm.icon_source !== 'U') throw notFound();
      return sendPng(reply, realmIconFile(app, realm.id), params.version === String(realm.icon_version));
    },
  }),
];
