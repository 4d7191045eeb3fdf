// update_message events: a message edited, or messages moved to another topic or stream. Unread
// messages that moved change their unread bucket, and an edited message may gain or lose a mention.
import { defineEventType, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';

export type UpdateMessageEvent = {
  type: 'update_message';
  /** Null for a rendering-only update (a link preview). */
  user_id: number | null;
  edit_timestamp: number;
  message_id: number;
  message_ids: number[];
  rendering_only: boolean;
  /** The receiver's flags on the message. */
  flags?: string[];
  stream_name?: string;
  stream_id?: number;
  new_stream_id?: number;
  propagate_mode?: string;
  orig_subject?: string;
  subject?: string;
  topic_links?: unknown[];
  orig_content?: string;
  orig_rendered_content?: string;
  content?: string;
  rendered_content?: string;
  is_me_message?: boolean;
  prev_rendered_content_version?: number;
};
import { addSorted, recountUnread, sortBuckets, type UnreadMsgs } from '../apply/unread.ts';

const MENTION_FLAGS = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

/** A content edit may add or remove a mention of the user (the event carries their flags). */
function applyMentions(unread: UnreadMsgs, event: BaseEvent): void {
  if (typeof event.content !== 'string' || !Array.isArray(event.flags) || typeof event.message_id !== 'number') return;
  const id = event.message_id;
  const flags = event.flags as string[];
  const mentioned = flags.some((f) => MENTION_FLAGS.includes(f));
  if (mentioned && !flags.includes('read')) addSorted(unread.mentions, id);
  else unread.mentions = unread.mentions.filter((m) => m !== id);
}

function apply(state: State, event: BaseEvent): void {
  const unread = state.unread_msgs as UnreadMsgs | undefined;
  if (unread) applyMentions(unread, event);
  if (!unread || typeof event.stream_id !== 'number') return;
  const moved = typeof event.subject === 'string' || typeof event.new_stream_id === 'number';
  if (!moved) return;
  const ids = new Set((event.message_ids ?? []) as number[]);
  const streamId = typeof event.new_stream_id === 'number' ? event.new_stream_id : event.stream_id;
  const topic = typeof event.subject === 'string' ? event.subject : String(event.orig_subject);
  const taken: number[] = [];
  for (const b of unread.streams) {
    if (b.stream_id !== event.stream_id) continue;
    taken.push(...b.unread_message_ids.filter((id) => ids.has(id)));
    b.unread_message_ids = b.unread_message_ids.filter((id) => !ids.has(id));
  }
  unread.streams = unread.streams.filter((b) => b.unread_message_ids.length > 0);
  if (taken.length === 0) return;
  let target = unread.streams.find((b) => b.stream_id === streamId && b.topic === topic);
  if (!target) unread.streams.push((target = { stream_id: streamId, topic, unread_message_ids: [] }));
  for (const id of taken) addSorted(target.unread_message_ids, id);
  sortBuckets(unread);
  recountUnread(state);
}

export const updateMessageEventType = defineEventType<UpdateMessageEvent>({ type: 'update_message', apply });
