// The register + long-poll loop. A lost queue (BAD_EVENT_QUEUE_ID: the server restarted without
// saving it, or it was collected while the laptop slept) registers again and hands the new
// snapshot over, so the caller can refetch what it shows. Network errors back off and retry.
import { Api, ApiError, NetworkError, type Params } from './http.ts';

export type ServerEvent = { id: number; type: string } & Record<string, unknown>;
export type Snapshot = Record<string, unknown> & { queue_id: string; last_event_id: number };
export type ConnectionStatus = 'connecting' | 'connected' | 'reconnecting' | 'stopped';

export interface QueueCallbacks {
  /** A fresh snapshot: the first one, or a new queue's after the old one was lost. */
  onSnapshot(state: Snapshot, reconnect: boolean): void | Promise<void>;
  onEvents(events: ServerEvent[]): void;
  onStatus?(status: ConnectionStatus): void;
  /** The session ended (logged out elsewhere, expired): show the login page. */
  onUnauthorized?(): void;
}

export interface QueueOptions {
  minDelayMs?: number;
  maxDelayMs?: number;
}

export const REGISTER_PARAMS: Params = {
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  // Each stream's subscribers, kept by peer events: the administrators' stream list counts them.
  include_subscribers: true,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: false,
    stream_typing_notifications: true,
    user_settings_object: true,
    empty_topic_name: true,
    // The settings' linkifier list: without it the server sends no linkifiers and no events.
    linkifier_url_template: true,
  },
};

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      resolve();
    });
  });

export class EventQueue {
  queueId: string | null = null;
  lastEventId = -1;
  status: ConnectionStatus = 'connecting';
  private failures = 0;
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;

  constructor(
    private readonly api: Api,
    private readonly cb: QueueCallbacks,
    private readonly opts: QueueOptions = {},
    private readonly params: Params = REGISTER_PARAMS,
  ) {}

  get stopped(): boolean {
    return this.abort.signal.aborted;
  }

  /** Registers (rejecting with the ApiError on 401 and other refusals), then polls in the background. */
  async start(): Promise<void> {
    await this.register(false);
    this.running = this.loop();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.abort.abort();
    this.setStatus('stopped');
    const queueId = this.queueId;
    await this.running?.catch(() => undefined);
    if (queueId) await this.api.delete('/events', { queue_id: queueId }).catch(() => undefined);
  }

  /** Wakes a backing-off loop at once (the browser said it is online again). */
  retryNow = (): void => {
    this.wake?.();
  };
  private wake: (() => void) | null = null;

  private setStatus(s: ConnectionStatus): void {
    if (this.status === s) return;
    this.status = s;
    this.cb.onStatus?.(s);
  }

  private delay(): number {
    const min = this.opts.minDelayMs ?? 1000;
    const max = this.opts.maxDelayMs ?? 30_000;
    const d = Math.min(max, min * 2 ** Math.min(this.failures, 10));
    return d / 2 + (Math.random() * d) / 2;
  }

  private async backoff(): Promise<void> {
    this.failures++;
    this.setStatus('reconnecting');
    const local = new AbortController();
    this.wake = () => local.abort();
    const onAbort = () => local.abort();
    this.abort.signal.addEventListener('abort', onAbort);
    await sleep(this.delay(), local.signal);
    this.abort.signal.removeEventListener('abort', onAbort);
    this.wake = null;
  }

  private async register(reconnect: boolean): Promise<void> {
    const state = await this.api.post<Snapshot>('/register', this.params);
    this.queueId = state.queue_id;
    this.lastEventId = state.last_event_id;
    this.failures = 0;
    await this.cb.onSnapshot(state, reconnect);
    this.setStatus('connected');
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        if (this.queueId === null) {
          await this.register(true);
          continue;
        }
        const r = await this.api.get<{ events: ServerEvent[] }>('/events', { queue_id: this.queueId, last_event_id: this.lastEventId }, this.abort.signal);
        this.failures = 0;
        this.setStatus('connected');
        // A retried poll may hand back events already seen: the IDs tell.
        const fresh = r.events.filter((e) => e.id > this.lastEventId);
        if (fresh.length === 0) continue;
        this.lastEventId = Math.max(...fresh.map((e) => e.id));
        const real = fresh.filter((e) => e.type !== 'heartbeat');
        try {
          if (real.length > 0) this.cb.onEvents(real);
        } catch (err) {
          // A bug in one event's handling must not stop the app from syncing.
          console.error(err);
        }
      } catch (e) {
        if (this.stopped) return;
        if (e instanceof ApiError && e.code === 'BAD_EVENT_QUEUE_ID') {
          this.queueId = null;
          continue;
        }
        if (e instanceof ApiError && e.status === 401) {
          this.abort.abort();
          this.setStatus('stopped');
          this.cb.onUnauthorized?.();
          return;
        }
        if (!(e instanceof NetworkError) && !(e instanceof ApiError)) console.error(e);
        await this.backoff();
      }
    }
  }
}
