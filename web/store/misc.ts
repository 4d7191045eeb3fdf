// Small stores: typing, drafts, your settings and the organization's.
import { signal } from '@preact/signals';
import { dmKey } from './match.ts';
import type { Draft, ScheduledMessage } from './types.ts';

export interface Typist {
  userId: number;
  expires: number;
}

/** Who is typing where; a conversation is `s:<stream>:<topic>` or `d:<dm key>`. */
export class TypingStore {
  readonly byConversation = signal<Map<string, Typist[]>>(new Map());

  static streamKey(streamId: number, topic: string): string {
    return `s:${streamId}:${topic.toLowerCase()}`;
  }
  static dmKey(userIds: number[], me: number): string {
    return `d:${dmKey(userIds, me)}`;
  }

  apply(e: Record<string, unknown>, me: number, now = Date.now()): void {
    const sender = (e.sender as { user_id: number }).user_id;
    if (sender === me) return;
    const key =
      e.message_type === 'stream'
        ? TypingStore.streamKey(e.stream_id as number, String(e.topic ?? ''))
        : TypingStore.dmKey([...((e.recipients ?? []) as { user_id: number }[]).map((r) => r.user_id), sender], me);
    const next = new Map(this.byConversation.value);
    const list = (next.get(key) ?? []).filter((t) => t.userId !== sender);
    // A typist that never says stop (closed tab) fades after 15 s, as in the reference.
    if (e.op === 'start') list.push({ userId: sender, expires: now + 15_000 });
    if (list.length) next.set(key, list);
    else next.delete(key);
    this.byConversation.value = next;
  }

  /** A message from someone ends their typing there. */
  stop(key: string, userId: number): void {
    const list = this.byConversation.value.get(key);
    if (!list?.some((t) => t.userId === userId)) return;
    const next = new Map(this.byConversation.value);
    const rest = list.filter((t) => t.userId !== userId);
    if (rest.length) next.set(key, rest);
    else next.delete(key);
    this.byConversation.value = next;
  }

  expire(now = Date.now()): void {
    let changed = false;
    const next = new Map<string, Typist[]>();
    for (const [k, list] of this.byConversation.value) {
      const kept = list.filter((t) => t.expires > now);
      if (kept.length !== list.length) changed = true;
      if (kept.length) next.set(k, kept);
    }
    if (changed) this.byConversation.value = next;
  }
}

/**
 * A list of one's own things kept by ID, from the snapshot's list and the `add` (a list),
 * `update` (one, merged over what was kept) and `remove` (an ID) events: drafts, scheduled messages.
 */
class KeyedStore<T> {
  readonly byId = signal<Map<number, T>>(new Map());

  constructor(
    private readonly key: (x: T) => number,
    /** The snapshot's and the events' field names: the list, the one updated, the removed ID. */
    private readonly fields: { list: string; one: string; id: string },
  ) {}

  load(state: Record<string, unknown>): void {
    this.byId.value = new Map(((state[this.fields.list] ?? []) as T[]).map((x) => [this.key(x), x]));
  }

  apply(e: Record<string, unknown>): void {
    const next = new Map(this.byId.value);
    if (e.op === 'add') for (const x of e[this.fields.list] as T[]) next.set(this.key(x), x);
    else if (e.op === 'update') {
      const x = e[this.fields.one] as T;
      next.set(this.key(x), { ...next.get(this.key(x)), ...x });
    } else if (e.op === 'remove') next.delete(e[this.fields.id] as number);
    this.byId.value = next;
  }
}

export class DraftStore extends KeyedStore<Draft> {
  constructor() {
    super((d) => d.id, { list: 'drafts', one: 'draft', id: 'draft_id' });
  }

  /**
   * The drafts addressed to a topic that moved as a whole, addressed to where it went (topic
   * names match whatever their case, as the server's do); a part of a topic moving takes none.
   */
  followingMove(move: { fromStream: number; fromTopic: string; toStream: number; toTopic: string; whole: boolean }): Draft[] {
    if (!move.whole) return [];
    const from = move.fromTopic.toLowerCase();
    return [...this.byId.value.values()]
      .filter((d) => d.type === 'stream' && d.to[0] === move.fromStream && d.topic.toLowerCase() === from)
      .map((d) => ({ ...d, to: [move.toStream], topic: move.toTopic }));
  }
}

/** Your scheduled messages (`scheduled_messages`). */
export class ScheduledStore extends KeyedStore<ScheduledMessage> {
  constructor() {
    super((m) => m.scheduled_message_id, { list: 'scheduled_messages', one: 'scheduled_message', id: 'scheduled_message_id' });
  }

  /** Earliest delivery first. */
  sorted(): ScheduledMessage[] {
    return [...this.byId.value.values()].sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.scheduled_message_id - b.scheduled_message_id);
  }
}

export type Settings = Record<string, unknown>;

/** A user group as the snapshot and its events give it (the fields kept here). */
type GroupJson = { id: number; name: string; description?: string; is_system_group?: boolean };

export class SettingsStore {
  /** Your settings (`user_settings`). */
  readonly user = signal<Settings>({});
  /** The organization's settings (`realm_*` fields of the snapshot, without the prefix). */
  readonly realm = signal<Settings>({});
  readonly me = signal({ user_id: 0, email: '', full_name: '', is_admin: false });
  readonly alertWords = signal<string[]>([]);
  /** User groups, for @-mentions. */
  readonly groups = signal<{ id: number; name: string; description: string }[]>([]);

  load(state: Record<string, unknown>): void {
    this.user.value = { ...((state.user_settings ?? {}) as Settings) };
    const realm: Settings = {};
    for (const [k, v] of Object.entries(state)) if (k.startsWith('realm_') && !Array.isArray(v)) realm[k.slice(6)] = v;
    this.realm.value = realm;
    this.me.value = {
      user_id: state.user_id as number,
      email: String(state.email ?? ''),
      full_name: String(state.full_name ?? ''),
      is_admin: state.is_admin === true,
    };
    this.alertWords.value = (state.alert_words ?? []) as string[];
    this.groups.value = ((state.realm_user_groups ?? []) as GroupJson[]).filter((g) => !g.is_system_group).map((g) => ({ id: g.id, name: g.name, description: g.description ?? '' }));
  }

  applyUserGroup(e: Record<string, unknown>): void {
    const group = e.group as GroupJson | undefined;
    // A deactivated group leaves the snapshot, as on the server: it can no longer be mentioned.
    const deactivated = e.op === 'update' && (e.data as { deactivated?: boolean } | undefined)?.deactivated === true;
    if (e.op === 'add' && group && !group.is_system_group) {
      this.groups.value = [...this.groups.value, { id: group.id, name: group.name, description: group.description ?? '' }];
    } else if (e.op === 'remove' || deactivated) {
      this.groups.value = this.groups.value.filter((g) => g.id !== e.group_id);
    } else if (e.op === 'update' && e.data) {
      const { name, description } = e.data as { name?: string; description?: string };
      this.groups.value = this.groups.value.map((g) => (g.id === e.group_id ? { ...g, ...(name !== undefined && { name }), ...(description !== undefined && { description }) } : g));
    }
  }

  applyUserSettings(e: Record<string, unknown>): void {
    if (e.op === 'update') this.user.value = { ...this.user.value, [String(e.property)]: e.value };
  }

  applyRealm(e: Record<string, unknown>): void {
    if (e.op === 'update') this.realm.value = { ...this.realm.value, [String(e.property)]: e.value };
    else if (e.op === 'update_dict') this.realm.value = { ...this.realm.value, ...(e.data as Settings) };
  }

  applyAlertWords(e: Record<string, unknown>): void {
    this.alertWords.value = (e.alert_words ?? []) as string[];
  }
}
