// Uploaded avatars (of oneself, or of a bot one administers) and the organization's icon. The
// squares are written to disk before the row that points at them changes; their URLs carry a
// version that every change bumps, so browsers fetch the new image.
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import type { Realm, User } from '../db/schema.ts';
import { lockRealm, updateRealmColumns } from '../db/queries/realm-admin.ts';
import { activeUserIdsInRealm, lockUser, updateUser } from '../db/queries/users.ts';
import { isAdmin, requireAdmin } from '../lib/permissions.ts';
import { AVATAR_MEDIUM_SIZE, AVATAR_SIZE, avatarUrl, realmIconUrl } from '../lib/avatar.ts';
import { badRequest } from '../lib/errors.ts';
import { replaceFile, squarePngs } from '../lib/images.ts';
import { realmSettings, realmUrl } from '../lib/realm.ts';
import { runAction, type ActionScope } from './action.ts';
import { accessBot, botAudience } from './bots.ts';

/** Where a realm's avatars and icon are kept. */
export function avatarDir(app: AppContext, realmId: number): string {
  return path.join(app.config.uploadsDir, 'avatars', String(realmId));
}

export function avatarFile(app: AppContext, realmId: number, userId: number, medium: boolean): string {
  return path.join(avatarDir(app, realmId), `${userId}${medium ? '-medium' : ''}.png`);
}

export function realmIconFile(app: AppContext, realmId: number): string {
  return path.join(avatarDir(app, realmId), 'realm', 'icon.png');
}

async function removeFiles(files: string[]): Promise<void> {
  await Promise.all(files.map((f) => fs.promises.rm(f, { force: true })));
}

/** Whose avatar the caller changes: their own, or a bot's they administer. */
async function avatarTarget(scope: ActionScope, caller: User, realm: Realm, targetId: number): Promise<User> {
  if (targetId !== caller.id) {
    const bot = await accessBot(scope.tx, caller, targetId);
    if (!bot.is_active) throw badRequest('No such bot');
  } else if (realmSettings(realm).avatar_changes_disabled && !isAdmin(caller)) {
    throw badRequest('Avatar changes are disabled in this organization.');
  }
  return (await lockUser(scope.tx, realm.id, targetId, scope.dialect))!;
}

/** The realm_user update everyone hears, and the realm_bot update for a bot's administrators. */
async function emitAvatar(app: AppContext, scope: ActionScope, realm: Realm, user: User): Promise<void> {
  const url = realmUrl(app.config, realm);
  const person = {
    user_id: user.id,
    avatar_source: user.avatar_source,
    avatar_url: avatarUrl(user, false, url)!,
    avatar_url_medium: avatarUrl(user, false, url, true)!,
    avatar_version: user.avatar_version,
  };
  scope.emit({ type: 'realm_user', op: 'update', person }, await activeUserIdsInRealm(scope.tx, realm.id));
  if (user.is_bot) {
    scope.emit(
      { type: 'realm_bot', op: 'update', bot: { user_id: user.id, avatar_url: person.avatar_url } },
      await botAudience(scope.tx, realm.id, [user.bot_owner_id]),
    );
  }
}

/** An uploaded image as the avatar's two squares (refused with a 400 if it is no image). */
export type AvatarSquares = Buffer[];
export const avatarSquares = (image: Buffer): Promise<AvatarSquares> => squarePngs(image, [AVATAR_SIZE, AVATAR_MEDIUM_SIZE]);

/**
 * Sets the avatar of the caller (or of a bot they administer) from an uploaded image's squares;
 * null (`DELETE`) goes back to the external avatar service. Returns the new avatar URL.
 */
export async function checkSetAvatar(app: AppContext, caller: User, realm: Realm, targetId: number, squares: AvatarSquares | null): Promise<string> {
  const user = await runAction(app, async (scope) => {
    const target = await avatarTarget(scope, caller, realm, targetId);
    if (squares) {
      await replaceFile(avatarFile(app, realm.id, target.id, false), squares[0]!);
      await replaceFile(avatarFile(app, realm.id, target.id, true), squares[1]!);
    }
    const changed = { ...target, avatar_source: squares ? 'U' : 'G', avatar_version: target.avatar_version + 1 };
    await updateUser(scope.tx, target.id, { avatar_source: changed.avatar_source, avatar_version: changed.avatar_version });
    await emitAvatar(app, scope, realm, changed);
    return changed;
  });
  if (!squares) await removeFiles([avatarFile(app, realm.id, user.id, false), avatarFile(app, realm.id, user.id, true)]);
  return avatarUrl(user, false, realmUrl(app.config, realm))!;
}

/** Sets the organization's icon from an uploaded image, or back to the default (null). */
export async function checkSetRealmIcon(app: AppContext, caller: User, realm: Realm, image: Buffer | null): Promise<string> {
  requireAdmin(caller);
  const squares = image ? await squarePngs(image, [AVATAR_SIZE]) : null;
  const url = realmUrl(app.config, realm);
  const iconUrl = await runAction(app, async (scope) => {
    const current = (await lockRealm(scope.tx, realm.id, scope.dialect))!;
    if (squares) {
      await replaceFile(realmIconFile(app, realm.id), squares[0]!);
    }
    const changed = { ...current, icon_source: squares ? 'U' : 'G', icon_version: current.icon_version + 1 };
    await updateRealmColumns(scope.tx, realm.id, { icon_source: changed.icon_source, icon_version: changed.icon_version });
    const icon = realmIconUrl(changed, url);
    scope.emit(
      { type: 'realm', op: 'update_dict', property: 'icon', data: { icon_url: icon, icon_source: changed.icon_source } },
      await activeUserIdsInRealm(scope.tx, realm.id),
    );
    return icon;
  });
  if (!squares) await removeFiles([realmIconFile(app, realm.id)]);
  return iconUrl;
}
