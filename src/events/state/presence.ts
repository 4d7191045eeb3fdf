// Register snapshot: presences (modern format by user ID with slim_presence, else legacy by
// email) and server_timestamp.
import { realmPresences } from '../../lib/presence.ts';
import type { SnapshotGroup } from './types.ts';

export const presenceSnapshot: SnapshotGroup = async ({ app, realm, slimPresence }) => {
  const now = Math.floor(Date.now() / 1000);
  return { presences: await realmPresences(app.db.kysely, realm, slimPresence, now), server_timestamp: now };
};
