// Register snapshot group `muted_users`.
import { mutedUsersOf } from '../../db/queries/muted-users.ts';
import type { SnapshotGroup } from './types.ts';

export const mutedUsersSnapshot: SnapshotGroup = async ({ app, user }) => ({
  muted_users: user ? (await mutedUsersOf(app.db.kysely, user.id)).map((r) => ({ id: r.muted_user_id, timestamp: r.date_muted })) : [],
});
