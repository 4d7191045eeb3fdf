// The `default_streams` snapshot group (guests do not see the realm's defaults).
import { defaultStreams } from '../../db/queries/default-streams.ts';
import { isGuest } from '../../lib/permissions.ts';
import { presentDefaultStreams } from '../../presenters/default-streams.ts';
import type { SnapshotGroup } from './types.ts';

export const defaultStreamsGroup: SnapshotGroup = async ({ app, realm, user }) => ({
  realm_default_streams: user && !isGuest(user) ? presentDefaultStreams(await defaultStreams(app.db.kysely, realm.id)) : [],
});
