// default_stream_groups events: the realm's whole list of default stream groups; their streams
// are stream objects, as the spec says.
import { defaultStreamGroups } from '../../db/queries/default-streams.ts';
import { isGuest } from '../../lib/permissions.ts';
import { presentDefaultStreamGroup } from '../../presenters/default-streams.ts';
import { replaceApply } from '../apply/replace.ts';
import { defineEventType, type SnapshotGroup } from '../event-type.ts';

export type DefaultStreamGroupsEvent = { type: 'default_stream_groups'; default_stream_groups: ReturnType<typeof presentDefaultStreamGroup>[] };

export const defaultStreamGroupsGroup: SnapshotGroup = async ({ app, realm, user }) => ({
  realm_default_stream_groups: user && !isGuest(user) ? (await defaultStreamGroups(app.db.kysely, realm.id)).map(presentDefaultStreamGroup) : [],
});

export const defaultStreamGroupsEventType = defineEventType<DefaultStreamGroupsEvent>({
  type: 'default_stream_groups',
  snapshot: { default_stream_groups: defaultStreamGroupsGroup },
  apply: replaceApply('default_stream_groups', 'realm_default_stream_groups'),
});
