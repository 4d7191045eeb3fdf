// Register snapshot group `muted_topics` (legacy): [stream name, topic, time muted] triples.
// The reference leaves it out when the client also asked for `user_topic`.
import { userTopicsOfUser, VISIBILITY } from '../../db/queries/user-topics.ts';
import { presentMutedTopic } from '../../presenters/user-topic.ts';
import type { SnapshotGroup } from './types.ts';

export const mutedTopicsSnapshot: SnapshotGroup = async ({ app, user }) => ({
  muted_topics: user ? (await userTopicsOfUser(app.db.kysely, user.id, VISIBILITY.MUTED)).map(presentMutedTopic) : [],
});
