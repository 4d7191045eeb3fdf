// Register snapshot groups of the messages area: `message` (max_message_id),
// `update_message_flags` (unread_msgs, starred_messages), `starred_messages` and `stop_words`.
import { dmKeyUsers } from '../../db/queries/recipients.ts';
import { maxMessageId, starredIds, unreadRows } from '../../db/queries/unreads.ts';
import { FLAG_BITS } from '../../db/flags.ts';
import { unreadExclusions, unreadFilter } from '../../db/queries/user-topics.ts';
import { stopWords } from '../../db/queries/search.ts';
import type { SnapshotGroup } from './types.ts';

/** The reference also caps the unread messages it reports. */
const MAX_UNREAD_MESSAGES = 50000;
const MENTION_BITS = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;

export const messageSnapshot: SnapshotGroup = async ({ app, user }) => ({
  max_message_id: user ? await maxMessageId(app.db.kysely, user.id) : -1,
});

export const starredMessagesSnapshot: SnapshotGroup = async ({ app, user }) => ({
  starred_messages: user ? await starredIds(app.db.kysely, user.id) : [],
});

export const stopWordsSnapshot: SnapshotGroup = async () => ({ stop_words: [...stopWords()] });

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
