// The `default_streams` group: the streams new users are subscribed to.
import { defaultStreamsOfRealm } from '../../db/queries/state.ts';
import { presentStream } from '../../presenters/stream.ts';
import type { SnapshotGroup } from './types.ts';

export const defaultStreamsGroup: SnapshotGroup = async ({ app, realm }) => ({
  realm_default_streams: (await defaultStreamsOfRealm(app.db.kysely, realm.id)).map((s) => presentStream(s, null)),
});
