// Register snapshot group `user_topic`: the caller's topic settings.
import { userTopicsOfUser } from '../../db/queries/user-topics.ts';
import { presentUserTopic } from '../../presenters/user-topic.ts';
import type { SnapshotGroup } from './types.ts';

export const userTopicSnapshot: SnapshotGroup = async ({ app, user }) => ({
  user_topics: user ? (await userTopicsOfUser(app.db.kysely, user.id)).map(presentUserTopic) : [],
});
