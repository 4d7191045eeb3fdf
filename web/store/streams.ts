// Subscriptions (the streams you are in, with your colour and mute settings), the streams you
// can see, your topic settings, and topics the client knows of per stream.
import { computed, signal } from '@preact/signals';
import { topicKey, type MuteRules } from './unread.ts';
import type { Subscription } from './types.ts';

export interface StreamInfo {
  stream_id: number;
  name: string;
  description: string;
  invite_only: boolean;
}

export interface TopicInfo {
  name: string;
  maxId: number;
}

const POLICY = { 0: 'inherit', 1: 'muted', 2: 'unmuted', 3: 'followed' } as const;

export class StreamStore {
  readonly subs = signal<Map<number, Subscription>>(new Map());
  readonly streams = signal<Map<number, StreamInfo>>(new Map());
  readonly userTopics = signal<Map<string, number>>(new Map());
  /** Recent topics per stream, newest first (from fetches and live messages). */
  readonly topics = signal<Map<number, TopicInfo[]>>(new Map());
  /** Who is subscribed to each stream you can see (register's include_subscribers), kept by peer events. */
  readonly subscribers = signal<Map<number, ReadonlySet<number>>>(new Map());

  constructor(private readonly me: () => number) {}

  readonly sorted = computed(() =>
    [...this.subs.value.values()].sort((a, b) => Number(b.pin_to_top) - Number(a.pin_to_top) || a.name.localeCompare(b.name)),
  );

  readonly muteRules = computed<MuteRules>(() => {
    const subs = this.subs.value;
    const policies = this.userTopics.value;
    return {
      streamMuted: (id) => subs.get(id)?.is_muted === true,
      topicPolicy: (id, topic) => POLICY[(policies.get(topicKey(id, topic)) ?? 0) as 0 | 1 | 2 | 3] ?? 'inherit',
    };
  });

  name(streamId: number | undefined): string {
    if (streamId === undefined) return '';
    return this.subs.value.get(streamId)?.name ?? this.streams.value.get(streamId)?.name ?? `stream ${streamId}`;
  }

  byName(name: string): number | undefined {
    const lower = name.toLowerCase();
    for (const s of this.subs.value.values()) if (s.name.toLowerCase() === lower) return s.stream_id;
    for (const s of this.streams.value.values()) if (s.name.toLowerCase() === lower) return s.stream_id;
    return undefined;
  }

  load(state: Record<string, unknown>): void {
    const subs = new Map<number, Subscription>();
    for (const s of (state.subscriptions ?? []) as Subscription[]) subs.set(s.stream_id, normalizeSub(s));
    this.subs.value = subs;
    const streams = new Map<number, StreamInfo>();
    for (const s of (state.streams ?? []) as StreamInfo[]) streams.set(s.stream_id, s);
    this.streams.value = streams;
    const subscribers = new Map<number, ReadonlySet<number>>();
    for (const key of ['subscriptions', 'unsubscribed', 'never_subscribed']) {
      for (const s of (state[key] ?? []) as { stream_id: number; subscribers?: number[] }[]) if (s.subscribers) subscribers.set(s.stream_id, new Set(s.subscribers));
    }
    this.subscribers.value = subscribers;
    const ut = new Map<string, number>();
    for (const t of (state.user_topics ?? []) as { stream_id: number; topic_name: string; visibility_policy: number }[]) {
      ut.set(topicKey(t.stream_id, t.topic_name), t.visibility_policy);
    }
    this.userTopics.value = ut;
  }

  /** Topics fetched from `/users/me/{stream_id}/topics`. */
  setTopics(streamId: number, topics: { name: string; max_id: number }[]): void {
    const next = new Map(this.topics.value);
    const known = new Map((next.get(streamId) ?? []).map((t) => [t.name.toLowerCase(), t]));
    for (const t of topics) {
      const old = known.get(t.name.toLowerCase());
      if (!old || old.maxId < t.max_id) known.set(t.name.toLowerCase(), { name: t.name, maxId: t.max_id });
    }
    next.set(streamId, [...known.values()].sort((a, b) => b.maxId - a.maxId));
    this.topics.value = next;
  }

  noteMessage(streamId: number, topic: string, id: number): void {
    this.setTopics(streamId, [{ name: topic, max_id: id }]);
  }

  // --- event applies -------------------------------------------------------------------

  applySubscription(e: Record<string, unknown>): void {
    this.applySubscribers(e);
    const subs = new Map(this.subs.value);
    if (e.op === 'add') for (const s of e.subscriptions as Subscription[]) subs.set(s.stream_id, normalizeSub(s));
    else if (e.op === 'remove') for (const s of e.subscriptions as { stream_id: number }[]) subs.delete(s.stream_id);
    else if (e.op === 'update') {
      const old = subs.get(e.stream_id as number);
      if (old) {
        const property = e.property === 'in_home_view' ? 'is_muted' : String(e.property);
        const value = e.property === 'in_home_view' ? !e.value : e.value;
        subs.set(old.stream_id, { ...old, [property]: value });
      }
    } else return;
    this.subs.value = subs;
  }

  /** Your own subscriptions added (with their subscribers) or removed, and other people's. */
  private applySubscribers(e: Record<string, unknown>): void {
    const next = new Map(this.subscribers.value);
    const change = (streamId: number, userIds: number[], add: boolean) => {
      const set = new Set(next.get(streamId));
      for (const id of userIds) {
        if (add) set.add(id);
        else set.delete(id);
      }
      next.set(streamId, set);
    };
    if (e.op === 'add') {
      for (const s of e.subscriptions as { stream_id: number; subscribers?: number[] }[]) {
        if (s.subscribers) next.set(s.stream_id, new Set(s.subscribers));
        else change(s.stream_id, [this.me()], true);
      }
    } else if (e.op === 'remove') for (const s of e.subscriptions as { stream_id: number }[]) change(s.stream_id, [this.me()], false);
    else if (e.op === 'peer_add' || e.op === 'peer_remove') for (const id of e.stream_ids as number[]) change(id, e.user_ids as number[], e.op === 'peer_add');
    else return;
    this.subscribers.value = next;
  }

  applyStream(e: Record<string, unknown>): void {
    const streams = new Map(this.streams.value);
    if (e.op === 'create') for (const s of e.streams as StreamInfo[]) streams.set(s.stream_id, s);
    else if (e.op === 'delete') {
      const subs = new Map(this.subs.value);
      const subscribers = new Map(this.subscribers.value);
      for (const s of e.streams as StreamInfo[]) {
        streams.delete(s.stream_id);
        subs.delete(s.stream_id);
        subscribers.delete(s.stream_id);
      }
      this.subs.value = subs;
      this.subscribers.value = subscribers;
    } else if (e.op === 'update') {
      const id = e.stream_id as number;
      const s = streams.get(id);
      if (s) streams.set(id, { ...s, [String(e.property)]: e.value });
      const sub = this.subs.value.get(id);
      if (sub) this.subs.value = new Map(this.subs.value).set(id, { ...sub, [String(e.property)]: e.value });
    }
    this.streams.value = streams;
  }

  applyUserTopic(e: Record<string, unknown>): void {
    const ut = new Map(this.userTopics.value);
    const key = topicKey(e.stream_id as number, String(e.topic_name));
    if (e.visibility_policy === 0) ut.delete(key);
    else ut.set(key, e.visibility_policy as number);
    this.userTopics.value = ut;
  }

  /** Messages moved to another topic; the old one goes only when all of it moved (`whole`), else messages stay there. */
  applyMoveTopic(fromStream: number, toStream: number, oldTopic: string, newTopic: string, maxId: number, whole: boolean): void {
    if (whole) {
      const next = new Map(this.topics.value);
      const from = (next.get(fromStream) ?? []).filter((t) => t.name.toLowerCase() !== oldTopic.toLowerCase());
      next.set(fromStream, from);
      this.topics.value = next;
    }
    this.noteMessage(toStream, newTopic, maxId);
  }
}

function normalizeSub(s: Subscription & { in_home_view?: boolean }): Subscription {
  return { ...s, is_muted: s.is_muted ?? s.in_home_view === false, color: s.color || '#c2c2c2' };
}
