// Unread messages, one entry per message ID (where it lives and whether it mentions you). The
// counts the sidebar, title and favicon show are derived from these entries, never kept apart.
// The rules follow the server's `unread_msgs` applies (src/events/apply/unread.ts and the
// message event types): muted streams and topics leave the total, DMs always count.
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import { dmKey, isMentioned } from './match.ts';
import type { Message } from './types.ts';

export type UnreadEntry =
  | { kind: 'stream'; streamId: number; topic: string; mentioned: boolean }
  | { kind: 'dm'; key: string; mentioned: boolean };

export interface UnreadSnapshot {
  streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  pms: { other_user_id: number; unread_message_ids: number[] }[];
  huddles: { user_ids_string: string; unread_message_ids: number[] }[];
  mentions: number[];
}

export interface UnreadCounts {
  total: number;
  dms: number;
  mentions: number;
  /** Unread DMs and mentions, each message once: what is addressed to you. */
  addressed: number;
  byStream: Map<number, number>;
  /** Keyed by `topicKey(streamId, topic)`. */
  byTopic: Map<string, number>;
  byDm: Map<string, number>;
}

export const topicKey = (streamId: number, topic: string): string => `${streamId}\u0000${topic.toLowerCase()}`;

export interface MuteRules {
  streamMuted(streamId: number): boolean;
  /** 'muted', 'unmuted', 'followed' or 'inherit' for a topic. */
  topicPolicy(streamId: number, topic: string): 'muted' | 'unmuted' | 'followed' | 'inherit';
}

export class UnreadStore {
  readonly entries = new Map<number, UnreadEntry>();
  readonly version = signal(0);
  readonly counts: ReadonlySignal<UnreadCounts>;

  constructor(
    private readonly me: () => number,
    mute: { rules: ReadonlySignal<MuteRules> },
  ) {
    this.counts = computed(() => {
      void this.version.value;
      return this.derive(mute.rules.value);
    });
  }

  has(id: number): boolean {
    return this.entries.has(id);
  }

  private touch(): void {
    this.version.value++;
  }

  load(s: UnreadSnapshot): void {
    this.entries.clear();
    const mentions = new Set(s.mentions);
    for (const b of s.streams) for (const id of b.unread_message_ids) this.entries.set(id, { kind: 'stream', streamId: b.stream_id, topic: b.topic, mentioned: mentions.has(id) });
    for (const b of s.pms) for (const id of b.unread_message_ids) this.entries.set(id, { kind: 'dm', key: String(b.other_user_id), mentioned: mentions.has(id) });
    for (const b of s.huddles) {
      const key = dmKey(b.user_ids_string.split(',').map(Number), this.me());
      for (const id of b.unread_message_ids) this.entries.set(id, { kind: 'dm', key, mentioned: mentions.has(id) });
    }
    this.touch();
  }

  entryFor(m: Message): UnreadEntry {
    const mentioned = isMentioned(m.flags);
    if (m.type === 'stream') return { kind: 'stream', streamId: m.stream_id!, topic: m.subject, mentioned };
    const ids = Array.isArray(m.display_recipient) ? m.display_recipient.map((r) => r.id) : [];
    return { kind: 'dm', key: dmKey(ids, this.me()), mentioned };
  }

  /** A new message event, or fetched messages: their `read` flag decides. */
  applyMessages(messages: Message[]): void {
    let changed = false;
    for (const m of messages) {
      if (m.flags.includes('read')) {
        if (this.entries.delete(m.id)) changed = true;
      } else if (!this.entries.has(m.id)) {
        this.entries.set(m.id, this.entryFor(m));
        changed = true;
      }
    }
    if (changed) this.touch();
  }

  applyRead(ids: number[]): void {
    let changed = false;
    for (const id of ids) if (this.entries.delete(id)) changed = true;
    if (changed) this.touch();
  }

  /** Marked unread again: the event's `message_details` say where each message lives. */
  applyUnread(details: Record<string, { type: string; mentioned?: boolean; stream_id?: number; topic?: string; user_ids?: number[] }>): void {
    for (const [key, d] of Object.entries(details)) {
      const id = Number(key);
      if (d.type === 'stream') this.entries.set(id, { kind: 'stream', streamId: d.stream_id!, topic: d.topic ?? '', mentioned: !!d.mentioned });
      else this.entries.set(id, { kind: 'dm', key: dmKey([...(d.user_ids ?? []), this.me()], this.me()), mentioned: !!d.mentioned });
    }
    this.touch();
  }

  /** Messages moved to another topic or stream take their unread entries along. */
  applyMove(ids: number[], streamId: number | undefined, topic: string | undefined): void {
    let changed = false;
    for (const id of ids) {
      const e = this.entries.get(id);
      if (!e || e.kind !== 'stream') continue;
      this.entries.set(id, { ...e, streamId: streamId ?? e.streamId, topic: topic ?? e.topic });
      changed = true;
    }
    if (changed) this.touch();
  }

  /** An edit can add or remove a mention of you. */
  applyMention(id: number, flags: string[]): void {
    const e = this.entries.get(id);
    if (!e) return;
    const mentioned = isMentioned(flags);
    if (e.mentioned !== mentioned) {
      this.entries.set(id, { ...e, mentioned });
      this.touch();
    }
  }

  /** The first unread message of a conversation, for "next unread" navigation. */
  unreadIds(filter: (e: UnreadEntry) => boolean): number[] {
    const ids: number[] = [];
    for (const [id, e] of this.entries) if (filter(e)) ids.push(id);
    return ids.sort((a, b) => a - b);
  }

  private derive(rules: MuteRules): UnreadCounts {
    const c: UnreadCounts = { total: 0, dms: 0, mentions: 0, addressed: 0, byStream: new Map(), byTopic: new Map(), byDm: new Map() };
    const inc = <K>(m: Map<K, number>, k: K) => m.set(k, (m.get(k) ?? 0) + 1);
    for (const e of this.entries.values()) {
      if (e.mentioned) c.mentions++;
      if (e.mentioned || e.kind === 'dm') c.addressed++;
      if (e.kind === 'dm') {
        c.total++;
        c.dms++;
        inc(c.byDm, e.key);
        continue;
      }
      const policy = rules.topicPolicy(e.streamId, e.topic);
      if (policy === 'muted') continue;
      const excluded = rules.streamMuted(e.streamId) && policy !== 'unmuted' && policy !== 'followed';
      inc(c.byTopic, topicKey(e.streamId, e.topic));
      // A muted stream still shows its count (dimmed), but leaves the total.
      inc(c.byStream, e.streamId);
      if (!excluded) c.total++;
    }
    return c;
  }
}
