// default_streams events: the realm's whole list of default streams (guests do not see it).
import { defaultStreams } from '../../db/queries/default-streams.ts';
import { isGuest } from '../../lib/permissions.ts';
import { presentDefaultStreams } from '../../presenters/default-streams.ts';
import { replaceApply } from '../apply/replace.ts';
import { defineEventType, type SnapshotGroup } from '../event-type.ts';

export type DefaultStreamsEvent = { type: 'default_streams'; default_streams: ReturnType<typeof presentDefaultStreams> };

export const defaultStreamsGroup: SnapshotGroup = async ({ app, realm, user }) => ({
  realm_default_streams: user && !isGuest(user) ? presentDefaultStreams(await defaultStreams(app.db.kysely, realm.id)) : [],
});

export const defaultStreamsEventType = defineEventType<DefaultStreamsEvent>({
  type: 'default_streams',
  snapshot: { default_streams: defaultStreamsGroup },
  apply: replaceApply('default_streams', 'realm_default_streams'),
});
