// Adding and deactivating custom emoji. Image files live under <uploads>/emoji/<realm id>/.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/database.ts';
import type { Realm, User } from '../db/schema.ts';
import { activeRealmEmojiByName, deactivateRealmEmoji, insertRealmEmoji, realmEmojiRows } from '../db/queries/realm-emoji.ts';
import { activeUserIdsInRealm } from '../db/queries/users.ts';
import { isAdmin, may } from '../lib/permissions.ts';
import { ApiError, badRequest } from '../lib/errors.ts';
import { ADMIN_LIMITS } from '../lib/limits.ts';
import { emojiTables } from '../lib/markdown/emoji-data.ts';
import { realmSettings } from '../lib/realm.ts';
import { presentRealmEmojiMap } from '../presenters/realm-emoji.ts';
import { imageExtension, writeDurably } from '../lib/uploads.ts';
import { runAction, type ActionScope } from './action.ts';

const NAME_RE = /^[0-9a-z_-]*[0-9a-z]$/;

/** Lower-case letters, digits, hyphens and underscores, not ending in a hyphen or underscore. */
export function checkEmojiName(raw: string): string {
  const name = raw.trim().replace(/ /g, '_');
  if (name === '') throw badRequest('Emoji name is missing');
  if (name.length > ADMIN_LIMITS.maxEmojiNameLength || !NAME_RE.test(name)) {
    throw badRequest('Emoji names must contain only lowercase alphanumeric characters, hyphen, and underscore.');
  }
  return name;
}

export function emojiDir(app: AppContext, realmId: number): string {
  return path.join(app.config.uploadsDir, 'emoji', String(realmId));
}

async function emitEmoji(scope: ActionScope, realmId: number): Promise<void> {
  const rows = await realmEmojiRows(scope.tx, realmId);
  scope.emit({ type: 'realm_emoji', op: 'update', realm_emoji: presentRealmEmojiMap(rows) }, await activeUserIdsInRealm(scope.tx, realmId));
}

export async function checkAddRealmEmoji(app: AppContext, caller: User, realm: Realm, rawName: string, image: Buffer | null): Promise<void> {
  const name = checkEmojiName(rawName);
  const settings = realmSettings(realm);
  const now = Math.floor(Date.now() / 1000);
  if (!may(caller, 'addCustomEmoji', settings, now)) throw badRequest('Insufficient permission');
  if (emojiTables().nameToCode.has(name) && !isAdmin(caller)) throw badRequest('Only administrators can override default emoji.');
  if (!image) throw badRequest('You must upload exactly one file.');
  const ext = imageExtension(image);
  const fileName = `${randomBytes(12).toString('hex')}.${ext}`;
  const file = path.join(emojiDir(app, realm.id), fileName);
  // The file is on disk before the row that names it is committed; a failed commit removes it.
  await writeDurably(file, image);
  try {
    await runAction(app, async (scope) => {
      if (await activeRealmEmojiByName(scope.tx, realm.id, name)) throw badRequest('A custom emoji with this name already exists.');
      await insertRealmEmoji(scope.tx, { realm_id: realm.id, name, file_name: fileName, author_id: caller.id, deactivated: 0, date_created: scope.now });
      await emitEmoji(scope, realm.id);
    });
  } catch (err) {
    await fs.promises.rm(file, { force: true });
    throw err;
  }
}

export async function checkRemoveRealmEmoji(app: AppContext, caller: User, realm: Realm, rawName: string): Promise<void> {
  const name = rawName.trim().replace(/ /g, '_');
  await runAction(app, async (scope) => {
    const row = await activeRealmEmojiByName(scope.tx as Tx, realm.id, name);
    if (!row) throw new ApiError(`Emoji '${name}' does not exist`, 'BAD_REQUEST', 404);
    if (!isAdmin(caller) && row.author_id !== caller.id) throw badRequest('Must be an organization administrator or emoji author');
    await deactivateRealmEmoji(scope.tx, row.id);
    await emitEmoji(scope, realm.id);
  });
}
