// Message events: one per distinct set of receiver flags, published with the rendered message.
// Each client gets the content it asked for (rendered or raw), its own avatar convention, and
// `local_message_id` only on the queue that sent the message.
// Snapshot groups: `message` (max_message_id) and `recent_private_conversations`; `stop_words`
// never changes.
import { dmKeyUsers, recipientsByIds } from '../../db/queries/recipients.ts';
import { recentDmConversations } from '../../db/queries/state.ts';
import { maxMessageId } from '../../db/queries/unreads.ts';
import type { MessageJson } from '../../presenters/message.ts';
import type { Term } from '../../lib/narrow.ts';
import { stopWords } from '../../db/queries/search.ts';
import { defineEventType, type ClientOptions, type SnapshotGroup, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';
import { recountUnread, type UnreadMsgs } from '../apply/unread.ts';

export type MessageEvent = {
  type: 'message';
  /** Rendered content, avatar_url as for a client without client_external_avatar. */
  message: MessageJson;
  flags: string[];
  // Internal fields, removed before the event reaches a client:
  raw_content: string;
  sender_queue_id: string | undefined;
  local_message_id: string | undefined;
  /** The sender's avatar comes from the external service (null for client_external_avatar). */
  sender_avatar_external: boolean;
  realm_id: number;
  /** Stream messages: whether the stream is public (for all_public_streams queues). */
  public_stream: boolean;
};

export interface ClientMessageEvent extends BaseEvent {
  type: 'message';
  message: MessageJson;
  flags: string[];
  local_message_id?: string;
}

function termMatches(t: Term, m: MessageJson, flags: string[], rawContent: string, publicStream: boolean, userId: number): boolean {
  switch (t.kind) {
    case 'stream':
      return m.stream_id !== undefined && m.stream_id === t.streamId;
    case 'streams-public':
      return m.type === 'stream' && publicStream;
    case 'topic':
      return m.type === 'stream' && m.subject.toLowerCase() === t.topic.toLowerCase();
    case 'sender':
      return m.sender_id === t.userId;
    case 'dm':
      return m.type === 'private' && m.recipient_id === t.recipientId;
    case 'dm-including':
      return m.type === 'private' && Array.isArray(m.display_recipient) && m.display_recipient.some((u) => u.id === t.userId);
    case 'is':
      switch (t.what) {
        case 'dm':
          return m.type === 'private';
        case 'starred':
          return flags.includes('starred');
        case 'unread':
          return !flags.includes('read');
        case 'mentioned':
          return flags.includes('mentioned') || flags.includes('stream_wildcard_mentioned') || flags.includes('topic_wildcard_mentioned');
        case 'alerted':
          return flags.includes('has_alert_word');
        case 'resolved':
          return m.type === 'stream' && m.subject.startsWith('\u2714 ');
        case 'followed':
          return false;
      }
      return false;
    case 'has':
      switch (t.what) {
        case 'link':
          return m.content.includes('<a ');
        case 'image':
          return m.content.includes('message_inline_image');
        case 'attachment':
          return m.content.includes('/user_uploads/');
        case 'reaction':
          return m.reactions.length > 0;
      }
      return false;
    case 'id':
      return m.id === t.id;
    case 'search': {
      const hay = `${m.subject} ${rawContent}`.toLowerCase();
      return t.query.toLowerCase().split(/\s+/).filter(Boolean).every((w) => hay.includes(w));
    }
  }
  void userId;
  return false;
}

/** Whether a message event passes a queue's narrow (every term must hold). */
export function narrowAccepts(narrow: Term[], event: MessageEvent, userId: number): boolean {
  return narrow.every((t) => termMatches(t, event.message, event.flags, event.raw_content, event.public_stream, userId) !== t.negated);
}

function toClient(event: MessageEvent, client: ClientOptions): ClientMessageEvent {
  const message: MessageJson = { ...event.message };
  if (!client.applyMarkdown) {
    message.content = event.raw_content;
    message.content_type = 'text/x-markdown';
  }
  if (client.clientExternalAvatar && event.sender_avatar_external) message.avatar_url = null;
  const out: ClientMessageEvent = { type: 'message', message, flags: event.flags };
  if (event.local_message_id !== undefined && client.queueId !== null && event.sender_queue_id === client.queueId) {
    out.local_message_id = event.local_message_id;
  }
  return out;
}

export interface RecentConversation {
  user_ids: number[];
  max_message_id: number;
}

function dmParticipants(m: MessageJson): number[] {
  return Array.isArray(m.display_recipient) ? m.display_recipient.map((u) => u.id) : [];
}

function insertSorted(ids: number[], id: number): void {
  if (ids.includes(id)) return;
  ids.push(id);
  ids.sort((a, b) => a - b);
}

function applyUnread(unread: UnreadMsgs, m: MessageJson, flags: string[], userId: number): void {
  if (flags.includes('read')) return;
  const known = unread.streams.some((s) => s.unread_message_ids.includes(m.id)) ||
    unread.pms.some((s) => s.unread_message_ids.includes(m.id)) ||
    unread.huddles.some((s) => s.unread_message_ids.includes(m.id));
  if (known) return;
  unread.count += 1;
  if (m.type === 'stream') {
    let bucket = unread.streams.find((s) => s.stream_id === m.stream_id && s.topic === m.subject);
    if (!bucket) {
      bucket = { stream_id: m.stream_id!, topic: m.subject, unread_message_ids: [] };
      unread.streams.push(bucket);
    }
    insertSorted(bucket.unread_message_ids, m.id);
  } else {
    const ids = dmParticipants(m);
    if (ids.length <= 2) {
      const other = ids.find((id) => id !== userId) ?? userId;
      let bucket = unread.pms.find((s) => s.other_user_id === other);
      if (!bucket) {
        bucket = { other_user_id: other, sender_id: other, unread_message_ids: [] };
        unread.pms.push(bucket);
      }
      insertSorted(bucket.unread_message_ids, m.id);
    } else {
      const key = [...ids].sort((a, b) => a - b).join(',');
      let bucket = unread.huddles.find((s) => s.user_ids_string === key);
      if (!bucket) {
        bucket = { user_ids_string: key, unread_message_ids: [] };
        unread.huddles.push(bucket);
      }
      insertSorted(bucket.unread_message_ids, m.id);
    }
  }
  const mentioned = flags.includes('mentioned') || flags.includes('stream_wildcard_mentioned') || flags.includes('topic_wildcard_mentioned');
  if (mentioned) insertSorted(unread.mentions, m.id);
}

function applyRecent(list: RecentConversation[], m: MessageJson, userId: number): void {
  if (m.type !== 'private') return;
  const others = dmParticipants(m).filter((id) => id !== userId).sort((a, b) => a - b);
  const key = others.join(',');
  const conv = list.find((c) => c.user_ids.join(',') === key);
  if (conv) conv.max_message_id = Math.max(conv.max_message_id, m.id);
  else list.push({ user_ids: others, max_message_id: m.id });
  list.sort((a, b) => b.max_message_id - a.max_message_id);
}

function apply(state: State, event: BaseEvent, client: ClientOptions): void {
  const e = event as ClientMessageEvent;
  if (typeof state.max_message_id === 'number') state.max_message_id = Math.max(state.max_message_id, e.message.id);
  if (state.unread_msgs) applyUnread(state.unread_msgs as UnreadMsgs, e.message, e.flags, client.userId);
  if (state.recent_private_conversations) applyRecent(state.recent_private_conversations as RecentConversation[], e.message, client.userId);
  recountUnread(state);
}

export const messageSnapshot: SnapshotGroup = async ({ app, user }) => ({
  max_message_id: user ? await maxMessageId(app.db.kysely, user.id) : -1,
});

export const stopWordsSnapshot: SnapshotGroup = async () => ({ stop_words: [...stopWords()] });

export const recentPrivateConversationsGroup: SnapshotGroup = async ({ app, user }) => {
  if (!user) return { recent_private_conversations: [] };
  const db = app.db.kysely;
  const rows = await recentDmConversations(db, user.id);
  const recipients = await recipientsByIds(db, rows.map((r) => r.recipient_id));
  const list: RecentConversation[] = rows.map((r) => ({
    user_ids: dmKeyUsers(recipients.get(r.recipient_id)?.dm_key ?? '').filter((id) => id !== user.id),
    max_message_id: Number(r.max_id),
  }));
  return { recent_private_conversations: list.sort((a, b) => b.max_message_id - a.max_message_id) };
};

export const messageEventType = defineEventType<MessageEvent>({
  type: 'message',
  formKey(event, client) {
    const sender = client.queueId !== null && event.sender_queue_id === client.queueId;
    return `${client.applyMarkdown ? 1 : 0}${client.clientExternalAvatar ? 1 : 0}${sender ? 1 : 0}`;
  },
  forClient(event, client) {
    // Only the internal form is reshaped.
    if (typeof event.raw_content !== 'string') return [event as unknown as BaseEvent];
    return [toClient(event, client)];
  },
  accepts(event, client) {
    return client.narrow.length === 0 || narrowAccepts(client.narrow, event, client.userId);
  },
  publicStreams: {
    realmOf: (event) => (event.public_stream && event.message.type === 'stream' ? event.realm_id : null),
    // A message the user did not receive has no flags for them.
    unreceived: (event) => ({ ...event, flags: [] }),
  },
  snapshot: { message: messageSnapshot, recent_private_conversations: recentPrivateConversationsGroup },
  fixedSnapshot: { stop_words: stopWordsSnapshot },
  apply,
});
