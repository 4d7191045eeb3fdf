// Helpers for the event types that change a snapshot's `unread_msgs`.
import { VISIBILITY } from '../../db/queries/user-topics.ts';

interface UnreadStream {
  stream_id: number;
  topic: string;
  unread_message_ids: number[];
}
interface UnreadDm {
  other_user_id: number;
  sender_id?: number;
  unread_message_ids: number[];
}
interface UnreadHuddle {
  user_ids_string: string;
  unread_message_ids: number[];
}
/** The snapshot's `unread_msgs`. */
export interface UnreadMsgs {
  count: number;
  pms: UnreadDm[];
  streams: UnreadStream[];
  huddles: UnreadHuddle[];
  mentions: number[];
  old_unreads_missing: boolean;
}

type Bucket = { unread_message_ids: number[] };

/** Removes messages from every unread bucket and the mentions; empty buckets go. */
export function removeUnread(unread: UnreadMsgs, ids: readonly number[]): void {
  const gone = new Set(ids);
  let removed = 0;
  const strip = <T extends Bucket>(buckets: T[]): T[] => {
    for (const b of buckets) {
      const kept = b.unread_message_ids.filter((id) => !gone.has(id));
      removed += b.unread_message_ids.length - kept.length;
      b.unread_message_ids = kept;
    }
    return buckets.filter((b) => b.unread_message_ids.length > 0);
  };
  unread.streams = strip(unread.streams);
  unread.pms = strip(unread.pms);
  unread.huddles = strip(unread.huddles);
  unread.mentions = unread.mentions.filter((id) => !gone.has(id));
  unread.count -= removed;
}

export function addSorted(ids: number[], id: number): void {
  if (ids.includes(id)) return;
  ids.push(id);
  ids.sort((a, b) => a - b);
}

/** The snapshot lists buckets in the order of their oldest unread message. */
export function sortBuckets(unread: UnreadMsgs): void {
  const first = (b: Bucket): number => b.unread_message_ids[0] ?? 0;
  unread.streams.sort((a, b) => first(a) - first(b));
  unread.pms.sort((a, b) => first(a) - first(b));
  unread.huddles.sort((a, b) => first(a) - first(b));
}

type Sub = { stream_id: number; is_muted?: boolean; in_home_view?: boolean };
type TopicPolicy = { stream_id: number; topic_name: string; visibility_policy: number };

/**
 * The snapshot's count leaves out muted streams and topics (a topic unmuted or followed in a
 * muted stream counts). When the client holds its subscriptions and topic settings, the count
 * follows from the buckets; muting changes it without any message event.
 */
export function recountUnread(state: Record<string, unknown>): void {
  const unread = state.unread_msgs as UnreadMsgs | undefined;
  if (!unread || !Array.isArray(state.subscriptions) || !Array.isArray(state.user_topics)) return;
  const mutedStreams = new Set((state.subscriptions as Sub[]).filter((s) => s.is_muted === true || s.in_home_view === false).map((s) => s.stream_id));
  const policy = new Map((state.user_topics as TopicPolicy[]).map((t) => [`${t.stream_id}\u0000${t.topic_name.toLowerCase()}`, t.visibility_policy]));
  const excluded = (streamId: number, topic: string): boolean => {
    const p = policy.get(`${streamId}\u0000${topic.toLowerCase()}`);
    if (p === VISIBILITY.MUTED) return true;
    return mutedStreams.has(streamId) && p !== VISIBILITY.UNMUTED && p !== VISIBILITY.FOLLOWED;
  };
  const ids = (buckets: Bucket[]): number => buckets.reduce((n, b) => n + b.unread_message_ids.length, 0);
  unread.count = ids(unread.pms) + ids(unread.huddles) + ids(unread.streams.filter((b) => !excluded(b.stream_id, b.topic)));
}
