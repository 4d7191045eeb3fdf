// Conversations (a stream's topic, or a DM conversation) as the Inbox and Recent conversations
// views list them. Both are derived, never kept apart: the Inbox from the unread entries, Recent
// from the loaded messages plus the unread entries. The functions here are pure (tested on their
// own); `conversationContext(store)` gives them the store's streams, mutes and names.
//
//   inboxGroups(entries, ctx, filter) -> { dms: InboxRow[]; streams: InboxStream[] }
//     unread conversations; streams in sidebar order, topics and DMs newest unread first;
//     muted streams and topics left out (as they leave the unread total); `filter` matches words
//     of the stream, topic and participants' names
//   recentRows(messages, entries, ctx) -> RecentRow[]   every conversation of the loaded messages,
//     newest first, with senders (newest first), whether you took part, unread and mention counts
//   filterRecent(rows, RecentFilters) -> RecentRow[]
import { computed, type ReadonlySignal } from '@preact/signals';
import { dmKey, dmUserIds } from './match.ts';
import { topicKey, type MuteRules, type UnreadEntry } from './unread.ts';
import type { Message, Narrow } from './types.ts';
import type { Store } from './index.ts';

export interface ConversationContext {
  me: number;
  rules: MuteRules;
  /** Subscribed streams in the sidebar's order (pinned, then by name). */
  streams: readonly { stream_id: number; name: string; color: string; is_muted: boolean }[];
  userName(id: number): string;
  /** How the empty topic shows. */
  emptyTopicName: string;
}

export type ConversationRef = { type: 'stream'; streamId: number; topic: string } | { type: 'dm'; key: string; userIds: number[] };

export interface InboxRow {
  /** `s:<topicKey>` or `d:<dm key>`: stable across renders, used for focus and collapse state. */
  key: string;
  conversation: ConversationRef;
  label: string;
  count: number;
  mentions: number;
  /** The newest unread message, for sorting. */
  maxId: number;
  /** The unread message IDs, to mark the conversation read. */
  ids: number[];
}

export interface InboxStream {
  key: string;
  streamId: number;
  name: string;
  color: string;
  count: number;
  mentions: number;
  topics: InboxRow[];
}

export interface InboxGroups {
  dms: InboxRow[];
  streams: InboxStream[];
}

export const conversationKey = (c: ConversationRef): string => (c.type === 'stream' ? `s:${topicKey(c.streamId, c.topic)}` : `d:${c.key}`);

const dmUsersOf = (key: string, me: number): number[] => {
  const ids = key.split(',').map(Number);
  return ids.length === 1 && ids[0] === me ? [me] : ids.filter((id) => id !== me);
};

export const dmLabel = (userIds: readonly number[], ctx: Pick<ConversationContext, 'userName'>): string => userIds.map((id) => ctx.userName(id)).join(', ');

/** Every word of the filter appears in one of the texts (case-insensitive). */
export function matchesWords(filter: string, ...texts: string[]): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = texts.join(' ').toLowerCase();
  return words.every((w) => hay.includes(w));
}

function hidden(rules: MuteRules, streamId: number, topic: string): boolean {
  const policy = rules.topicPolicy(streamId, topic);
  if (policy === 'muted') return true;
  return rules.streamMuted(streamId) && policy !== 'unmuted' && policy !== 'followed';
}

export function inboxGroups(entries: Iterable<[number, UnreadEntry]>, ctx: ConversationContext, filter = ''): InboxGroups {
  const rows = new Map<string, InboxRow>();
  const subscribed = new Map(ctx.streams.map((s) => [s.stream_id, s]));
  for (const [id, e] of entries) {
    let conversation: ConversationRef;
    if (e.kind === 'dm') conversation = { type: 'dm', key: e.key, userIds: dmUsersOf(e.key, ctx.me) };
    else {
      if (!subscribed.has(e.streamId) || hidden(ctx.rules, e.streamId, e.topic)) continue;
      conversation = { type: 'stream', streamId: e.streamId, topic: e.topic };
    }
    const key = conversationKey(conversation);
    let row = rows.get(key);
    if (!row) {
      const label = conversation.type === 'dm' ? dmLabel(conversation.userIds, ctx) : conversation.topic || ctx.emptyTopicName;
      rows.set(key, (row = { key, conversation, label, count: 0, mentions: 0, maxId: 0, ids: [] }));
    }
    row.count++;
    if (e.mentioned) row.mentions++;
    row.maxId = Math.max(row.maxId, id);
    row.ids.push(id);
  }
  const newestFirst = (a: InboxRow, b: InboxRow) => b.maxId - a.maxId;
  const dms: InboxRow[] = [];
  const byStream = new Map<number, InboxRow[]>();
  for (const row of rows.values()) {
    row.ids.sort((a, b) => a - b);
    const c = row.conversation;
    if (c.type === 'dm') {
      if (matchesWords(filter, row.label)) dms.push(row);
      continue;
    }
    if (!matchesWords(filter, subscribed.get(c.streamId)!.name, row.label)) continue;
    const list = byStream.get(c.streamId) ?? [];
    list.push(row);
    byStream.set(c.streamId, list);
  }
  const streams: InboxStream[] = [];
  for (const s of ctx.streams) {
    const topics = byStream.get(s.stream_id);
    if (!topics) continue;
    topics.sort(newestFirst);
    streams.push({
      key: `stream:${s.stream_id}`,
      streamId: s.stream_id,
      name: s.name,
      color: s.color,
      count: topics.reduce((n, t) => n + t.count, 0),
      mentions: topics.reduce((n, t) => n + t.mentions, 0),
      topics,
    });
  }
  return { dms: dms.sort(newestFirst), streams };
}

export interface RecentRow {
  key: string;
  conversation: ConversationRef;
  /** Stream name for topics; the participants' names for DMs. */
  label: string;
  topicLabel: string;
  maxId: number;
  /** Time of the newest message (UTC seconds). */
  timestamp: number;
  /** Senders, newest first; for DMs the other participants follow any who have not written. */
  senders: number[];
  participated: boolean;
  unread: number;
  mentions: number;
  muted: boolean;
}

export function recentRows(messages: Iterable<Message>, entries: Iterable<[number, UnreadEntry]>, ctx: ConversationContext): RecentRow[] {
  const subscribed = new Map(ctx.streams.map((s) => [s.stream_id, s]));
  const rows = new Map<string, RecentRow & { senderTimes: Map<number, number> }>();
  for (const m of messages) {
    let conversation: ConversationRef;
    if (m.type === 'stream') {
      const stream = subscribed.get(m.stream_id!);
      if (!stream) continue;
      conversation = { type: 'stream', streamId: m.stream_id!, topic: m.subject };
    } else {
      const key = dmKey(dmUserIds(m), ctx.me);
      conversation = { type: 'dm', key, userIds: dmUsersOf(key, ctx.me) };
    }
    const key = conversationKey(conversation);
    let row = rows.get(key);
    if (!row) {
      const isStream = conversation.type === 'stream';
      row = {
        key,
        conversation,
        label: conversation.type === 'stream' ? subscribed.get(conversation.streamId)!.name : dmLabel(conversation.userIds, ctx),
        topicLabel: isStream ? m.subject || ctx.emptyTopicName : '',
        maxId: 0,
        timestamp: 0,
        senders: [],
        participated: false,
        unread: 0,
        mentions: 0,
        muted: conversation.type === 'stream' && hidden(ctx.rules, conversation.streamId, m.subject),
        senderTimes: new Map(),
      };
      rows.set(key, row);
    }
    if (m.id > row.maxId) {
      row.maxId = m.id;
      row.timestamp = m.timestamp;
      // The newest message's spelling of the topic wins (topics match without case).
      if (conversation.type === 'stream') row.topicLabel = m.subject || ctx.emptyTopicName;
    }
    if (m.sender_id === ctx.me) row.participated = true;
    row.senderTimes.set(m.sender_id, Math.max(row.senderTimes.get(m.sender_id) ?? 0, m.id));
  }
  for (const [, e] of entries) {
    const key = e.kind === 'dm' ? `d:${e.key}` : `s:${topicKey(e.streamId, e.topic)}`;
    const row = rows.get(key);
    if (!row) continue;
    row.unread++;
    if (e.mentioned) row.mentions++;
  }
  const out: RecentRow[] = [];
  for (const { senderTimes, ...row } of rows.values()) {
    row.senders = [...senderTimes].sort((a, b) => b[1] - a[1]).map(([id]) => id);
    if (row.conversation.type === 'dm') for (const id of row.conversation.userIds) if (!row.senders.includes(id)) row.senders.push(id);
    out.push(row);
  }
  return out.sort((a, b) => b.maxId - a.maxId);
}

export interface RecentFilters {
  unreadOnly: boolean;
  participated: boolean;
  includeMuted: boolean;
  kind: 'all' | 'streams' | 'dms';
  text: string;
}

export const DEFAULT_RECENT_FILTERS: RecentFilters = { unreadOnly: false, participated: false, includeMuted: false, kind: 'all', text: '' };

export function filterRecent(rows: readonly RecentRow[], f: RecentFilters, ctx: Pick<ConversationContext, 'userName'>): RecentRow[] {
  return rows.filter((r) => {
    if (f.unreadOnly && r.unread === 0) return false;
    if (f.participated && !r.participated) return false;
    if (!f.includeMuted && r.muted) return false;
    if (f.kind === 'streams' && r.conversation.type !== 'stream') return false;
    if (f.kind === 'dms' && r.conversation.type !== 'dm') return false;
    return matchesWords(f.text, r.label, r.topicLabel, ...r.senders.map((id) => ctx.userName(id)));
  });
}

/** The store's conversation context, recomputed when streams, mutes, users or settings change. */
export function conversationContext(store: Store): ReadonlySignal<ConversationContext> {
  return computed(() => {
    const users = store.users.byId.value;
    const me = store.settings.me.value.user_id;
    return {
      me,
      rules: store.streams.muteRules.value,
      streams: store.streams.sorted.value,
      userName: (id: number) => users.get(id)?.full_name ?? 'Unknown user',
      emptyTopicName: String(store.settings.realm.value.empty_topic_display_name ?? 'general chat'),
    };
  });
}

/** The narrow that shows a conversation. */
export function narrowOf(c: ConversationRef): Narrow {
  if (c.type === 'dm') return [{ operator: 'dm', operand: c.userIds }];
  return [
    { operator: 'stream', operand: c.streamId },
    { operator: 'topic', operand: c.topic },
  ];
}
