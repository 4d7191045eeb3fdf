// Register snapshot: user_status, by user ID, for users with a status or hidden presence.
import { userStatusesInRealm } from '../../db/queries/presence.ts';
import { usersInRealm } from '../../db/queries/users.ts';
import { userSettings } from '../../lib/user-settings.ts';
import { presentUserStatus, type UserStatusJson } from '../../presenters/status.ts';
import type { SnapshotGroup } from './types.ts';

export const userStatusSnapshot: SnapshotGroup = async ({ app, realm }) => {
  const db = app.db.kysely;
  const rows = new Map((await userStatusesInRealm(db, realm.id)).map((r) => [r.user_id, r]));
  const out: Record<string, UserStatusJson> = {};
  for (const user of await usersInRealm(db, realm.id)) {
    const json = presentUserStatus(rows.get(user.id), !userSettings(user).presence_enabled);
    if (Object.keys(json).length > 0) out[String(user.id)] = json;
  }
  return { user_status: out };
};
