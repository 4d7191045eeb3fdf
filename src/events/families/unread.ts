// Helpers for the message families that change a snapshot's `unread_msgs`.
import type { UnreadMsgs } from './message.ts';

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
