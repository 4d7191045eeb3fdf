// Register snapshot group `user_topic`: the caller's topic settings.
import { userTopicsOfUser } from '../../db/queries/user-topics.ts';
import type { SnapshotGroup } from './types.ts';

export const userTopicSnapshot: SnapshotGroup = async ({ app, user }) => ({
  user_topics: user
    ? (await userTopicsOfUser(app.db.kysely, user.id)).map((t) => ({
        stream_id: t.stream_id,
        topic_name: t.topic_name,
        last_updated: t.last_updated,
        visibility_policy: t.visibility_policy,
      }))
    : [],
});
