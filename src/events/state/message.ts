// The `message` group (max_message_id) and the `update_message_flags` group (unread_msgs).
import { maxMessageIdForUser } from '../../db/queries/users.ts';
import { unreadMessages } from '../../db/queries/state.ts';
import { recipientsByIds, dmKeyUsers } from '../../db/queries/recipients.ts';
import { FLAG_BITS } from '../../lib/flags.ts';
import type { UnreadMsgs } from '../families/message.ts';
import type { SnapshotGroup } from './types.ts';

export const messageGroup: SnapshotGroup = async ({ app, user }) => ({
  max_message_id: user ? await maxMessageIdForUser(app.db.kysely, user.id) : -1,
});

const MENTION_BITS = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;

export const unreadGroup: SnapshotGroup = async ({ app, user }) => {
  const unread: UnreadMsgs = { count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: false };
  if (!user) return { unread_msgs: unread };
  const db = app.db.kysely;
  const rows = await unreadMessages(db, user.id, FLAG_BITS.read);
  const recipients = await recipientsByIds(db, [...new Set(rows.filter((r) => r.stream_id === null).map((r) => r.recipient_id))]);
  const streams = new Map<string, UnreadMsgs['streams'][number]>();
  const pms = new Map<number, UnreadMsgs['pms'][number]>();
  const huddles = new Map<string, UnreadMsgs['huddles'][number]>();
  for (const r of rows) {
    unread.count++;
    if (r.flags & MENTION_BITS) unread.mentions.push(r.message_id);
    if (r.stream_id !== null) {
      const key = `${r.stream_id}\u0000${r.topic}`;
      let b = streams.get(key);
      if (!b) streams.set(key, (b = { stream_id: r.stream_id, topic: r.topic, unread_message_ids: [] }));
      b.unread_message_ids.push(r.message_id);
      continue;
    }
    const members = dmKeyUsers(recipients.get(r.recipient_id)?.dm_key ?? '');
    if (members.length <= 2) {
      const other = members.find((id) => id !== user.id) ?? user.id;
      let b = pms.get(other);
      if (!b) pms.set(other, (b = { other_user_id: other, sender_id: other, unread_message_ids: [] }));
      b.unread_message_ids.push(r.message_id);
    } else {
      const key = members.join(',');
      let b = huddles.get(key);
      if (!b) huddles.set(key, (b = { user_ids_string: key, unread_message_ids: [] }));
      b.unread_message_ids.push(r.message_id);
    }
  }
  unread.streams = [...streams.values()];
  unread.pms = [...pms.values()];
  unread.huddles = [...huddles.values()];
  unread.old_unreads_missing = rows.length >= 50_000;
  return { unread_msgs: unread };
};
