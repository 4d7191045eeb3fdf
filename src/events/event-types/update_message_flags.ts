// update_message_flags events: the user's flags on messages changed. `read` moves messages out
// of (or, with `message_details`, back into) the unread counts; `starred` changes the starred list.
// Snapshot groups `update_message_flags` (unread_msgs, starred_messages) and `starred_messages`.
import { dmKeyUsers } from '../../db/queries/recipients.ts';
import { starredIds, unreadRows } from '../../db/queries/unreads.ts';
import { unreadExclusions, unreadFilter } from '../../db/queries/user-topics.ts';
import { FLAG_BITS } from '../../db/flags.ts';
import { defineEventType, type SnapshotGroup, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';
import { addSorted, recountUnread, removeUnread, sortBuckets, type UnreadMsgs } from '../apply/unread.ts';

export type FlagDetail =
  | { type: 'stream'; mentioned?: boolean; stream_id: number; topic: string; unmuted_stream_msg?: boolean }
  | { type: 'private'; mentioned?: boolean; user_ids: number[] };

export type UpdateMessageFlagsEvent = {
  type: 'update_message_flags';
  op: 'add' | 'remove';
  /** The legacy name of `op`. */
  operation: 'add' | 'remove';
  flag: string;
  messages: number[];
  all: boolean;
  /** Un-reading: what clients need to count the messages unread again. */
  message_details?: Record<string, FlagDetail>;
};

function markUnread(unread: UnreadMsgs, details: Record<string, FlagDetail>, userId: number): void {
  for (const [key, d] of Object.entries(details)) {
    const id = Number(key);
    if ([...unread.streams, ...unread.pms, ...unread.huddles].some((b) => b.unread_message_ids.includes(id))) continue;
    unread.count += 1;
    if (d.mentioned) addSorted(unread.mentions, id);
    if (d.type === 'stream') {
      let b = unread.streams.find((s) => s.stream_id === d.stream_id && s.topic === d.topic);
      if (!b) unread.streams.push((b = { stream_id: d.stream_id, topic: d.topic, unread_message_ids: [] }));
      addSorted(b.unread_message_ids, id);
    } else if (d.user_ids.length <= 1) {
      const other = d.user_ids[0] ?? userId;
      let b = unread.pms.find((s) => s.other_user_id === other);
      if (!b) unread.pms.push((b = { other_user_id: other, sender_id: other, unread_message_ids: [] }));
      addSorted(b.unread_message_ids, id);
    } else {
      const key = [...d.user_ids, userId].sort((a, b) => a - b).join(',');
      let b = unread.huddles.find((s) => s.user_ids_string === key);
      if (!b) unread.huddles.push((b = { user_ids_string: key, unread_message_ids: [] }));
      addSorted(b.unread_message_ids, id);
    }
  }
  sortBuckets(unread);
}

/** The reference also caps the unread messages it reports. */
const MAX_UNREAD_MESSAGES = 50000;
const MENTION_BITS = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;

export const starredMessagesSnapshot: SnapshotGroup = async ({ app, user }) => ({
  starred_messages: user ? await starredIds(app.db.kysely, user.id) : [],
});

export const unreadSnapshot: SnapshotGroup = async ({ app, user }) => {
  if (!user) {
    return { unread_msgs: { count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: false }, starred_messages: [] };
  }
  const rows = await unreadRows(app.db.kysely, user.id, MAX_UNREAD_MESSAGES + 1);
  // Muted streams and topics stay listed but leave the count and the wildcard mentions.
  const excluded = unreadFilter(await unreadExclusions(app.db.kysely, user.id));
  let count = 0;
  const missing = rows.length > MAX_UNREAD_MESSAGES;
  const kept = rows.slice(0, MAX_UNREAD_MESSAGES).reverse();
  const streams = new Map<string, { topic: string; stream_id: number; unread_message_ids: number[] }>();
  const pms = new Map<number, { other_user_id: number; sender_id: number; unread_message_ids: number[] }>();
  const huddles = new Map<string, { user_ids_string: string; unread_message_ids: number[] }>();
  const mentions: number[] = [];
  for (const r of kept) {
    const muted = excluded(r.stream_id, r.topic);
    if (!muted) count++;
    if ((r.flags & FLAG_BITS.mentioned) !== 0 || ((r.flags & MENTION_BITS) !== 0 && !muted)) mentions.push(r.id);
    if (r.stream_id !== null) {
      const key = `${r.stream_id}\u0000${r.topic}`;
      const e = streams.get(key) ?? { topic: r.topic, stream_id: r.stream_id, unread_message_ids: [] };
      e.unread_message_ids.push(r.id);
      streams.set(key, e);
      continue;
    }
    const users = dmKeyUsers(r.dm_key ?? '');
    if (users.length <= 2) {
      const other = users.find((u) => u !== user.id) ?? user.id;
      const e = pms.get(other) ?? { other_user_id: other, sender_id: other, unread_message_ids: [] };
      e.unread_message_ids.push(r.id);
      pms.set(other, e);
    } else {
      const key = users.join(',');
      const e = huddles.get(key) ?? { user_ids_string: key, unread_message_ids: [] };
      e.unread_message_ids.push(r.id);
      huddles.set(key, e);
    }
  }
  return {
    unread_msgs: { count, pms: [...pms.values()], streams: [...streams.values()], huddles: [...huddles.values()], mentions, old_unreads_missing: missing },
    starred_messages: await starredIds(app.db.kysely, user.id),
  };
};

export const updateMessageFlagsEventType = defineEventType<UpdateMessageFlagsEvent>({
  type: 'update_message_flags',
  snapshot: { update_message_flags: unreadSnapshot, starred_messages: starredMessagesSnapshot },
  apply(state: State, event: BaseEvent, client) {
    const ids = (event.messages ?? []) as number[];
    if (event.flag === 'read' && state.unread_msgs) {
      const unread = state.unread_msgs as UnreadMsgs;
      if (event.op === 'add') removeUnread(unread, ids);
      else if (event.message_details) markUnread(unread, event.message_details as Record<string, FlagDetail>, client.userId);
    }
    if (event.flag === 'starred' && Array.isArray(state.starred_messages)) {
      const starred = new Set(state.starred_messages as number[]);
      for (const id of ids) {
        if (event.op === 'add') starred.add(id);
        else starred.delete(id);
      }
      state.starred_messages = [...starred].sort((a, b) => a - b);
    }
    recountUnread(state);
  },
});
