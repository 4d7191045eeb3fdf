// A user's setting for one topic, as the `user_topics` snapshot and `user_topic` events show it,
// and the legacy muted-topic triple.
import type { UserTopic } from '../db/schema.ts';

export interface UserTopicJson {
  stream_id: number;
  topic_name: string;
  last_updated: number;
  visibility_policy: number;
}

export const presentUserTopic = (t: Pick<UserTopic, 'stream_id' | 'topic_name' | 'last_updated' | 'visibility_policy'>): UserTopicJson => ({
  stream_id: t.stream_id,
  topic_name: t.topic_name,
  last_updated: t.last_updated,
  visibility_policy: t.visibility_policy,
});

/** [stream name, topic, time muted], the legacy `muted_topics` entry. */
export const presentMutedTopic = (t: { stream_name: string; topic_name: string; last_updated: number }): [string, string, number] => [
  t.stream_name,
  t.topic_name,
  t.last_updated,
];
