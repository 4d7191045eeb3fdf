// muted_topics events (legacy): the user's whole list of muted topics, as [stream name, topic,
// time muted] triples. The reference leaves the group out when the client also asked for
// `user_topic`.
import { userTopicsOfUser, VISIBILITY } from '../../db/queries/user-topics.ts';
import { presentMutedTopic } from '../../presenters/user-topic.ts';
import { replaceApply } from '../apply/replace.ts';
import { defineEventType, type SnapshotGroup } from '../event-type.ts';

export type MutedTopicsEvent = { type: 'muted_topics'; muted_topics: ReturnType<typeof presentMutedTopic>[] };

export const mutedTopicsSnapshot: SnapshotGroup = async ({ app, user }) => ({
  muted_topics: user ? (await userTopicsOfUser(app.db.kysely, user.id, VISIBILITY.MUTED)).map(presentMutedTopic) : [],
});

export const mutedTopicsEventType = defineEventType<MutedTopicsEvent>({
  type: 'muted_topics',
  snapshot: { muted_topics: mutedTopicsSnapshot },
  apply: replaceApply('muted_topics', 'muted_topics'),
});
