// user_status events: a user's status (away, text, emoji) changed; only the changed fields come.
// The snapshot lists only set fields, and only users with any.
import { userStatusesInRealm } from '../../db/queries/presence.ts';
import { usersInRealm } from '../../db/queries/users.ts';
import { changedUserStatus, hasUserStatus, type UserStatus } from '../../lib/user-status.ts';
import { userSettings } from '../../lib/user-settings.ts';
import { presentUserStatus, type UserStatusJson } from '../../presenters/status.ts';
import { defineEventType, type SnapshotGroup, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';

export type UserStatusEvent = {
  type: 'user_status';
  user_id: number;
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
};

/** The group: by user ID, for users with a status or hidden presence. */
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

function apply(state: State, event: BaseEvent): void {
  const all = state.user_status as Record<string, UserStatus> | undefined;
  if (!all || typeof event.user_id !== 'number') return;
  const key = String(event.user_id);
  const status = changedUserStatus(all[key], event);
  if (hasUserStatus(status)) all[key] = status;
  else delete all[key];
}

export const userStatusEventType = defineEventType<UserStatusEvent>({ type: 'user_status', snapshot: { user_status: userStatusSnapshot }, apply });
