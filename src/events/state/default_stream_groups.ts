// The `default_stream_groups` snapshot group; streams are stream objects, as the spec says.
import { defaultStreamGroups } from '../../db/queries/default-streams.ts';
import { isGuest } from '../../lib/permissions.ts';
import { presentDefaultStreamGroup } from '../../presenters/default-streams.ts';
import type { SnapshotGroup } from './types.ts';

export const defaultStreamGroupsGroup: SnapshotGroup = async ({ app, realm, user }) => ({
  realm_default_stream_groups: user && !isGuest(user) ? (await defaultStreamGroups(app.db.kysely, realm.id)).map(presentDefaultStreamGroup) : [],
});
