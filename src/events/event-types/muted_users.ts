// muted_users events: the user's whole list of muted users.
import { mutedUsersOf } from '../../db/queries/muted-users.ts';
import { replaceApply } from '../apply/replace.ts';
import { defineEventType, type SnapshotGroup } from '../event-type.ts';

export type MutedUserJson = { id: number; timestamp: number };
export type MutedUsersEvent = { type: 'muted_users'; muted_users: MutedUserJson[] };

export const mutedUsersSnapshot: SnapshotGroup = async ({ app, user }) => ({
  muted_users: user ? (await mutedUsersOf(app.db.kysely, user.id)).map((r) => ({ id: r.muted_user_id, timestamp: r.date_muted })) : [],
});

export const mutedUsersEventType = defineEventType<MutedUsersEvent>({
  type: 'muted_users',
  snapshot: { muted_users: mutedUsersSnapshot },
  apply: replaceApply('muted_users', 'muted_users'),
});
