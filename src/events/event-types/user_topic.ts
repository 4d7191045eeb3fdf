// user_topic events: the user's visibility policy for one topic (0 removes the entry).
import { userTopicsOfUser } from '../../db/queries/user-topics.ts';
import { presentUserTopic, type UserTopicJson } from '../../presenters/user-topic.ts';
import { defineEventType, type SnapshotGroup, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';

export type UserTopicEvent = { type: 'user_topic' } & UserTopicJson;

/** The group: the caller's topic settings. */
export const userTopicSnapshot: SnapshotGroup = async ({ app, user }) => ({
  user_topics: user ? (await userTopicsOfUser(app.db.kysely, user.id)).map(presentUserTopic) : [],
});
import { recountUnread } from '../apply/unread.ts';

type UserTopic = { stream_id: number; topic_name: string; visibility_policy: number } & Record<string, unknown>;

function apply(state: State, event: BaseEvent): void {
  if (!Array.isArray(state.user_topics)) return;
  const e = event as BaseEvent & UserTopic;
  const same = (t: UserTopic): boolean => t.stream_id === e.stream_id && t.topic_name.toLowerCase() === e.topic_name.toLowerCase();
  const rest = (state.user_topics as UserTopic[]).filter((t) => !same(t));
  if (e.visibility_policy !== 0) {
    const { type: _type, id: _id, ...entry } = e;
    void _type;
    void _id;
    rest.push(entry);
  }
  state.user_topics = rest;
  recountUnread(state);
}

export const userTopicEventType = defineEventType<UserTopicEvent>({ type: 'user_topic', snapshot: { user_topic: userTopicSnapshot }, apply });
