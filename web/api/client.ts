// Connects the store to the server: register and events feed the store; fetches and actions
// go through here. Views call these methods; nothing else in the app touches the network.
import { signal } from '@preact/signals';
import { Api, ApiError, csrfHeaders, type Params } from './http.ts';
import { EventQueue, type ConnectionStatus, type QueueOptions } from './queue.ts';
import type { Store, TopicMove } from '../store/index.ts';
import type { MessageList } from '../store/messages.ts';
import type { Draft, Message, Narrow } from '../store/types.ts';

export interface FetchResult {
  messages: Message[];
  found_oldest: boolean;
  found_newest: boolean;
  found_anchor: boolean;
  anchor: number;
}

export type Outgoing = { type: 'stream'; streamId: number; topic: string; content: string } | { type: 'private'; to: number[]; content: string };

const PAGE = 100;

export class Client {
  readonly status = signal<ConnectionStatus>('connecting');
  queue: EventQueue | null = null;
  /** The list the person looks at: kept across a lost queue and refetched from its end. */
  current: MessageList | null = null;
  onUnauthorized: () => void = () => undefined;
  private readonly pendingRead = new Set<number>();
  private readTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly api: Api,
    readonly store: Store,
    private readonly queueOptions: QueueOptions = {},
  ) {}

  /** Registers and starts polling; rejects with ApiError 401 when not logged in. */
  async start(): Promise<void> {
    this.queue = new EventQueue(
      this.api,
      {
        onSnapshot: (state, reconnect) => this.onSnapshot(state, reconnect),
        onEvents: (events) => this.store.apply(events),
        onStatus: (s) => (this.status.value = s),
        onUnauthorized: () => this.onUnauthorized(),
      },
      this.queueOptions,
    );
    await this.queue.start();
  }

  async stop(): Promise<void> {
    await this.queue?.stop();
  }

  private async onSnapshot(state: Record<string, unknown>, reconnect: boolean): Promise<void> {
    this.store.load(state);
    if (!reconnect) return;
    // Events between the lost queue and the new one never reached us: lists other than the
    // one on screen are dropped (refetched when opened); that one fetches what came after it.
    this.store.messages.resetLists(this.current ?? undefined);
    const list = this.current;
    if (list) await this.catchUp(list);
  }

  /** Fetches everything after a list's last message (after a lost queue or a gap). */
  async catchUp(list: MessageList): Promise<void> {
    for (;;) {
      const last = list.ids[list.ids.length - 1];
      if (last === undefined) {
        await this.loadInitial(list, true);
        return;
      }
      const r = await this.fetch(list.narrow, last, 0, 1000);
      this.store.addFetched(r.messages);
      list.addRange(r.messages.filter((m) => m.id !== last).map((m) => m.id), false, r.found_newest);
      if (r.found_newest || r.messages.length <= 1) {
        list.foundNewest = true;
        list.touch();
        return;
      }
    }
  }

  fetch(narrow: Narrow, anchor: number | string, before: number, after: number): Promise<FetchResult> {
    return this.api.get<FetchResult>('/messages', {
      anchor: String(anchor),
      num_before: before,
      num_after: after,
      narrow,
      apply_markdown: true,
      client_gravatar: false,
    });
  }

  private loading = new Set<string>();
  /** First pages on their way, by list: a second caller (the view, after the start's early fetch) shares the answer, an error too. */
  private initial = new Map<string, Promise<void>>();

  /** The first page of a list, around its first unread message. */
  loadInitial(list: MessageList, force = false): Promise<void> {
    const pending = this.initial.get(list.key);
    if (pending) return pending;
    if ((list.loaded && !force) || this.loading.has(list.key)) return Promise.resolve();
    const load = this.fetchInitial(list).finally(() => this.initial.delete(list.key));
    this.initial.set(list.key, load);
    return load;
  }

  private async fetchInitial(list: MessageList): Promise<void> {
    this.loading.add(list.key);
    try {
      const r = await this.fetch(list.narrow, 'first_unread', PAGE / 2, PAGE / 2);
      this.store.addFetched(r.messages);
      list.anchor = r.anchor;
      list.addRange(r.messages.map((m) => m.id), r.found_oldest, r.found_newest);
    } finally {
      this.loading.delete(list.key);
    }
  }

  async loadOlder(list: MessageList): Promise<void> {
    const first = list.ids[0];
    if (list.foundOldest || first === undefined || this.loading.has(list.key)) return;
    this.loading.add(list.key);
    try {
      const r = await this.fetch(list.narrow, first, PAGE, 0);
      this.store.addFetched(r.messages);
      list.addRange(r.messages.filter((m) => m.id !== first).map((m) => m.id), r.found_oldest, false);
    } finally {
      this.loading.delete(list.key);
    }
  }

  async loadNewer(list: MessageList): Promise<void> {
    const last = list.ids[list.ids.length - 1];
    if (list.foundNewest || last === undefined || this.loading.has(list.key)) return;
    this.loading.add(list.key);
    try {
      const r = await this.fetch(list.narrow, last, 0, PAGE);
      this.store.addFetched(r.messages);
      list.addRange(r.messages.filter((m) => m.id !== last).map((m) => m.id), false, r.found_newest);
    } finally {
      this.loading.delete(list.key);
    }
  }

  /**
   * Brings a list that does not reach the newest message to the present, around `id` (a message
   * just sent from far back): the newest page replaces what it held.
   */
  async jumpToPresent(list: MessageList, id: number): Promise<void> {
    if (list.foundNewest) return;
    const r = await this.fetch(list.narrow, 'newest', PAGE, 0);
    this.store.addFetched(r.messages);
    list.replace(r.messages.map((m) => m.id), r.found_oldest, true, id);
  }

  async loadTopics(streamId: number): Promise<void> {
    const r = await this.api.get<{ topics: { name: string; max_id: number }[] }>(`/users/me/${streamId}/topics`);
    this.store.streams.setTopics(streamId, r.topics);
  }

  // --- actions -------------------------------------------------------------------------

  async send(m: Outgoing): Promise<number> {
    const params: Params =
      m.type === 'stream'
        ? { type: 'stream', to: m.streamId, topic: m.topic, content: m.content }
        : { type: 'direct', to: m.to, content: m.content };
    params.queue_id = this.queue?.queueId ?? undefined;
    params.local_id = String(Math.random()).slice(2, 10);
    const r = await this.api.post<{ id: number }>('/messages', params);
    return r.id;
  }

  /** Has the server send the message at `at` (Unix seconds); its ID. */
  async schedule(m: Outgoing, at: number): Promise<number> {
    const params: Params =
      m.type === 'stream'
        ? { type: 'stream', to: m.streamId, topic: m.topic, content: m.content, scheduled_delivery_timestamp: at }
        : { type: 'direct', to: m.to, content: m.content, scheduled_delivery_timestamp: at };
    const r = await this.api.post<{ scheduled_message_id: number }>('/scheduled_messages', params);
    return r.scheduled_message_id;
  }

  async deleteScheduled(id: number): Promise<void> {
    await this.api.delete(`/scheduled_messages/${id}`);
  }

  /** Marks messages read soon, in one request for everything seen in the meantime. */
  markRead(ids: number[]): void {
    const unread = ids.filter((id) => this.store.unread.has(id));
    if (unread.length === 0) return;
    // Shown as read at once; the server's event confirms it.
    this.store.unread.applyRead(unread);
    this.store.messages.applyFlags('add', 'read', unread);
    for (const id of unread) this.pendingRead.add(id);
    this.flushReads(300);
  }

  private flushReads(delay: number): void {
    if (this.readTimer) return;
    this.readTimer = setTimeout(() => void this.sendReads(), delay);
  }

  /** The read marks sent so far, one request after another: a later "unread" must not overtake them. */
  private readsSent: Promise<void> = Promise.resolve();

  /** Sends the reads not yet sent; settles once they and every earlier batch are answered. */
  private sendReads(): Promise<void> {
    clearTimeout(this.readTimer ?? undefined);
    this.readTimer = null;
    const batch = [...this.pendingRead];
    this.pendingRead.clear();
    if (batch.length > 0) this.readsSent = this.readsSent.then(() => this.postReads(batch));
    return this.readsSent;
  }

  private async postReads(batch: number[]): Promise<void> {
    try {
      await this.api.post('/messages/flags', { messages: batch, op: 'add', flag: 'read' });
    } catch {
      // Offline: tried again later (the messages show as read meanwhile).
      for (const id of batch) this.pendingRead.add(id);
      this.flushReads(5_000);
    }
  }

  async setFlag(ids: number[], flag: string, on: boolean): Promise<void> {
    await this.api.post('/messages/flags', { messages: ids, op: on ? 'add' : 'remove', flag });
  }

  /** Messages the person marked unread: being on screen does not mark them read again until the view changes. */
  readonly keptUnread = new Set<number>();

  async markUnreadFrom(id: number): Promise<void> {
    this.keptUnread.add(id);
    // Reads not yet sent, and those still on their way, go first: the server then has a read
    // to undo, and its event says so.
    await this.sendReads();
    await this.api.post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' });
  }

  async edit(id: number, content: string): Promise<void> {
    await this.api.patch(`/messages/${id}`, { content });
  }

  async moveTopic(id: number, opts: { topic?: string; streamId?: number; mode: 'change_one' | 'change_later' | 'change_all' }): Promise<void> {
    await this.api.patch(`/messages/${id}`, { topic: opts.topic, stream_id: opts.streamId, propagate_mode: opts.mode });
  }

  async delete(id: number): Promise<void> {
    await this.api.delete(`/messages/${id}`);
  }

  async rawContent(id: number): Promise<string> {
    const r = await this.api.get<{ message: { content: string } }>(`/messages/${id}`, { apply_markdown: false });
    return r.message.content;
  }

  async history(id: number): Promise<Record<string, unknown>[]> {
    const r = await this.api.get<{ message_history: Record<string, unknown>[] }>(`/messages/${id}/history`);
    return r.message_history;
  }

  async toggleReaction(m: Message, emoji: { name: string; code: string; type: string }): Promise<void> {
    const mine = m.reactions.some((r) => r.user_id === this.store.me && r.emoji_code === emoji.code && r.reaction_type === emoji.type);
    const params = { emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type };
    if (mine) await this.api.delete(`/messages/${m.id}/reactions`, params);
    else await this.api.post(`/messages/${m.id}/reactions`, params);
  }

  /** Adds a vote, an option, a task... to a message's widget (see lib/widgets.ts). */
  async submessage(messageId: number, data: Record<string, unknown>): Promise<void> {
    await this.api.post('/submessage', { message_id: messageId, msg_type: 'widget', content: JSON.stringify(data) });
  }

  async render(content: string): Promise<string> {
    const r = await this.api.post<{ rendered: string }>('/messages/render', { content });
    return r.rendered;
  }

  async saveDraft(d: Omit<Draft, 'id'> & { id?: number }): Promise<number> {
    const draft = { type: d.type, to: d.to, topic: d.topic, content: d.content, timestamp: Math.floor(Date.now() / 1000) };
    if (d.id !== undefined) {
      try {
        await this.api.patch(`/drafts/${d.id}`, { draft });
        return d.id;
      } catch (e) {
        if (!(e instanceof ApiError) || e.status !== 404) throw e;
      }
    }
    const r = await this.api.post<{ ids: number[] }>('/drafts', { drafts: [draft] });
    return r.ids[0]!;
  }

  /**
   * Readdresses the drafts of a topic moved as a whole to where it went (their `update` events
   * change the store); each keeps its time. Every open tab does it, to the same end.
   */
  async moveDrafts(move: TopicMove): Promise<void> {
    for (const d of this.store.drafts.followingMove(move)) {
      await this.api.patch(`/drafts/${d.id}`, { draft: { type: d.type, to: d.to, topic: d.topic, content: d.content, timestamp: d.timestamp } });
    }
  }

  async deleteDraft(id: number): Promise<void> {
    await this.api.delete(`/drafts/${id}`).catch(() => undefined);
  }

  async typing(op: 'start' | 'stop', to: { streamId: number; topic: string } | { userIds: number[] }): Promise<void> {
    const params = 'streamId' in to ? { op, type: 'stream', stream_id: to.streamId, topic: to.topic } : { op, type: 'direct', to: to.userIds };
    await this.api.post('/typing', params).catch(() => undefined);
  }

  async reportPresence(active: boolean): Promise<void> {
    await this.api.post('/users/me/presence', { status: active ? 'active' : 'idle', new_user_input: active, slim_presence: true }).catch(() => undefined);
  }

  upload(file: Blob, name: string, onProgress: (f: number) => void): Promise<{ url: string; filename: string }> {
    return this.api.upload(file, name, onProgress);
  }
}

/** Logs in with the session endpoint (outside `/json`). */
export async function login(email: string, password: string): Promise<void> {
  const res = await fetch('/accounts/login/', {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password }).toString(),
    credentials: 'same-origin',
  });
  let json: Record<string, unknown> = {};
  try {
    json = (await res.json()) as Record<string, unknown>;
  } catch {
    /* not JSON: reported below */
  }
  if (!res.ok || json.result !== 'success') {
    throw new ApiError(String(json.msg ?? `Login failed (HTTP ${res.status})`), res.status, String(json.code ?? 'BAD_REQUEST'), json);
  }
}

/**
 * The organization's name, for the login page (`/server_settings` needs no login); null when the
 * server does not say or cannot be reached.
 */
export async function organizationName(): Promise<string | null> {
  try {
    const res = await fetch('/api/v1/server_settings', { headers: { Accept: 'application/json' }, credentials: 'omit' });
    const json = (await res.json()) as { realm_name?: unknown };
    return typeof json.realm_name === 'string' && json.realm_name !== '' ? json.realm_name : null;
  } catch {
    return null;
  }
}

/**
 * Ends every session of this person, this one included (other browsers see the login page at
 * their next request). Unlike `logout`, a refusal is reported: the person must know it failed.
 */
export async function logoutEverywhere(): Promise<void> {
  await new Api({ base: '' }).post('/accounts/logout/everywhere/');
}

export async function logout(): Promise<void> {
  await fetch('/accounts/logout/', { method: 'POST', headers: { Accept: 'application/json', ...csrfHeaders() }, credentials: 'same-origin' }).catch(() => undefined);
}
