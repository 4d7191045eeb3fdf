// The event queues of this process: creating and finding them, delivering published events to
// the queues that want them, long-polls with heartbeats, and collecting idle queues.
import { randomBytes } from 'node:crypto';
import { ApiError, badEventQueueId, notLoggedIn } from '../lib/errors.ts';
import type { Logger } from '../log.ts';
import type { ClientOptions, EventType } from './event-type.ts';
import type { EventHub } from './hub.ts';
import { EventQueue, type QueueData, type Waiter } from './queue.ts';
import { eventTypeOf, type ParleyEvent } from './registry.ts';
import type { BaseEvent, QueuedEvent } from './types.ts';

export interface QueueManagerOptions {
  /** Seconds without a register or fetch before a queue is collected. */
  timeoutSeconds: number;
  /** Seconds a long-poll waits before a heartbeat answers it (varied by up to 10%). */
  heartbeatSeconds: number;
  /**
   * Queues one user may hold here; registering one more collects the least recently used (one
   * with no waiting poll if there is any). Spectators (no user) are bounded by the per-address
   * request limit instead.
   */
  maxQueuesPerUser?: number;
  /** Whether a browser session (by its stored hash) is still live: asked when some have ended. */
  sessionLive?: (tokenHash: string) => Promise<boolean>;
  /**
   * Milliseconds at least between two answers to one queue while events keep coming (see
   * `EventQueue`); 0 answers every poll at once. Under load each answer carries every event of
   * that time, where one answer per event per client would cost more than the events.
   */
  answerGapMs?: number;
  log: Logger;
}

/** Where the queues of several processes are recorded, so a request can reach a queue's owner. */
export interface QueueDirectory {
  claim(queueId: string): void;
  release(queueId: string): void;
  /** The base URL of the process that holds the queue, when it is another process. */
  ownerElsewhere(queueId: string): Promise<string | null>;
}

export function badQueue(queueId: string): ApiError {
  return badEventQueueId(queueId);
}

/** The events one client gets for a published event, after its event type reshaped them. */
export function clientForms(event: BaseEvent, client: ClientOptions, type = eventTypeOf(event.type)): BaseEvent[] {
  return type?.forClient ? type.forClient(event, client) : [event];
}

/**
 * At 1,000 messages a second to 50 polling subscribers, one answer per event per client would be
 * 50,000 HTTP requests a second; with 20 ms at least between a queue's answers it is 2,500 at most,
 * while a client that gets an event less often than every 20 ms gets each at once. (10 ms: on
 * the standard benchmark the 300/s step's delivery p99 was 89-114 ms, with 20 ms 27-30 ms.)
 * config.ts has the same default for EVENT_ANSWER_GAP_MS.
 */
export const DEFAULT_ANSWER_GAP_MS = 20;

/** A queue with a waiting poll is in use, so it goes after every queue without one. */
function usedLessRecently(a: EventQueue, b: EventQueue): boolean {
  if ((a.waiter === null) !== (b.waiter === null)) return a.waiter === null;
  return a.data.lastActivity < b.data.lastActivity;
}

const NO_QUEUES: readonly EventQueue[] = [];

export class QueueManager implements EventHub {
  private readonly queues = new Map<string, EventQueue>();
  /**
   * Each user's queues by the event types they asked for ('*': every type), so that publishing
   * visits only the queues that want the event, however many idle queues the user has.
   */
  private readonly byUser = new Map<number, Map<string, Set<EventQueue>>>();
  /** Each user's queues, to hold them to `maxQueuesPerUser`. */
  private readonly ofUser = new Map<number, Set<EventQueue>>();
  /** Queues with all_public_streams, by realm: they get public stream messages they did not receive. */
  private readonly publicStreams = new Map<number, Set<EventQueue>>();
  private gcTimer: NodeJS.Timeout | null = null;
  /** After `stop()`: the server is closing. */
  private stopped = false;
  /** Set when several processes share the queues' users (see redis-bus.ts). */
  directory: QueueDirectory | null = null;

  constructor(private readonly opts: QueueManagerOptions) {
    const every = Math.min(60_000, Math.max(250, (opts.timeoutSeconds * 1000) / 4));
    this.gcTimer = setInterval(() => this.collect(), every);
    this.gcTimer.unref();
  }

  get size(): number {
    return this.queues.size;
  }

  create(client: Omit<ClientOptions, 'queueId'>, eventTypes: string[] | null): EventQueue {
    const id = `${Date.now().toString(36)}:${randomBytes(8).toString('hex')}`;
    const data: QueueData = { id, client: { ...client, queueId: id }, eventTypes, events: [], lastEventId: -1, lastActivity: Date.now() };
    if (client.userId !== 0) this.makeRoomFor(client.userId);
    return this.add(data);
  }

  /** Collects the user's least recently used queues until one more fits. */
  private makeRoomFor(userId: number): void {
    const max = this.opts.maxQueuesPerUser;
    const own = this.ofUser.get(userId);
    if (max === undefined || !own) return;
    while (own.size >= max) {
      let oldest: EventQueue | null = null;
      for (const q of own) if (!oldest || usedLessRecently(q, oldest)) oldest = q;
      this.remove(oldest!);
      this.opts.log.debug({ userId, queueId: oldest!.id }, 'collected the least recently used event queue of a user at the limit');
    }
  }

  private add(data: QueueData): EventQueue {
    const q = new EventQueue(data, this.opts.answerGapMs ?? DEFAULT_ANSWER_GAP_MS);
    this.queues.set(data.id, q);
    this.directory?.claim(data.id);
    let own = this.ofUser.get(data.client.userId);
    if (!own) this.ofUser.set(data.client.userId, (own = new Set()));
    own.add(q);
    let byType = this.byUser.get(data.client.userId);
    if (!byType) this.byUser.set(data.client.userId, (byType = new Map()));
    for (const type of data.eventTypes ?? ['*']) {
      let set = byType.get(type);
      if (!set) byType.set(type, (set = new Set()));
      set.add(q);
    }
    if (data.client.allPublicStreams) {
      let pub = this.publicStreams.get(data.client.realmId);
      if (!pub) this.publicStreams.set(data.client.realmId, (pub = new Set()));
      pub.add(q);
    }
    return q;
  }

  private expired(q: EventQueue, now: number): boolean {
    return q.waiter === null && now - q.data.lastActivity > this.opts.timeoutSeconds * 1000;
  }

  /** Whether this process holds the queue. */
  has(queueId: string): boolean {
    return this.queues.has(queueId);
  }

  /**
   * The user's queue when `get` would return it (this process holds it, it is the user's and
   * live) and the manager has not stopped; null otherwise, without removing anything.
   */
  held(queueId: string, userId: number): EventQueue | null {
    const q = this.queues.get(queueId);
    if (!q || q.data.client.userId !== userId || this.stopped || this.expired(q, Date.now())) return null;
    return q;
  }

  /** The user's queue, or BAD_EVENT_QUEUE_ID for an unknown, collected or someone else's queue. */
  get(queueId: string, userId: number): EventQueue {
    const q = this.queues.get(queueId);
    if (!q || q.data.client.userId !== userId) throw badQueue(queueId);
    if (this.expired(q, Date.now())) {
      this.remove(q);
      throw badQueue(queueId);
    }
    return q;
  }

  remove(q: EventQueue): void {
    q.release();
    this.queues.delete(q.id);
    this.directory?.release(q.id);
    const byType = this.byUser.get(q.data.client.userId);
    for (const type of q.data.eventTypes ?? ['*']) {
      byType?.get(type)?.delete(q);
      if (byType?.get(type)?.size === 0) byType.delete(type);
    }
    if (byType?.size === 0) this.byUser.delete(q.data.client.userId);
    const own = this.ofUser.get(q.data.client.userId);
    own?.delete(q);
    if (own?.size === 0) this.ofUser.delete(q.data.client.userId);
    this.publicStreams.get(q.data.client.realmId)?.delete(q);
  }

  publish(published: ParleyEvent, userIds: readonly number[]): void {
    const event = published as BaseEvent;
    const type = eventTypeOf(event.type);
    const forms = new Map<string, BaseEvent[]>();
    const publicRealm = type?.publicStreams?.realmOf(event) ?? null;
    const publicQueues = publicRealm !== null ? this.publicStreams.get(publicRealm) : undefined;
    // Only needed when all_public_streams queues may get the event a second way.
    const seen = publicQueues?.size ? new Set<EventQueue>() : null;
    const types = ['*', event.type, ...(type?.alsoAs ?? [])];
    for (const userId of userIds) {
      for (const q of this.queuesWanting(userId, types)) {
        seen?.add(q);
        this.deliver(q, event, type, forms);
      }
    }
    if (publicQueues && seen) {
      const unreceived = type!.publicStreams!.unreceived(event);
      const unreceivedForms = new Map<string, BaseEvent[]>();
      for (const q of publicQueues) {
        if (!seen.has(q)) this.deliver(q, unreceived, type, unreceivedForms);
      }
    }
  }

  /** The user's queues that asked for any of these types, each once. */
  private queuesWanting(userId: number, types: string[]): Iterable<EventQueue> {
    const byType = this.byUser.get(userId);
    if (!byType) return NO_QUEUES;
    // A loop, not flatMap: this runs for every receiver of every event.
    let found: Set<EventQueue> | undefined;
    let union: Set<EventQueue> | undefined;
    for (const t of types) {
      const set = byType.get(t);
      if (set === undefined) continue;
      if (found === undefined) {
        found = set;
        continue;
      }
      union ??= new Set(found);
      for (const q of set) union.add(q);
    }
    return union ?? found ?? NO_QUEUES;
  }

  private deliver(q: EventQueue, event: BaseEvent, type: EventType | undefined, forms: Map<string, BaseEvent[]>): void {
    const client = q.data.client;
    if (!q.wants(event.type) && !type?.alsoAs?.some((t) => q.wants(t))) return;
    if (type?.accepts && !type.accepts(event, client)) return;
    let mine: BaseEvent[];
    if (type?.formKey) {
      const key = type.formKey(event, client);
      mine = forms.get(key) ?? clientForms(event, client, type);
      forms.set(key, mine);
    } else {
      mine = clientForms(event, client, type);
    }
    for (const form of mine) {
      if (q.wants(form.type)) q.push(form);
    }
  }

  /**
   * Answers with the events newer than `lastEventId`: at once when there are some (or with
   * `dontBlock`), else when one arrives or a heartbeat is due; events for a queue answered less
   * than the answer gap ago go at the end of the gap. `onClose` registers a callback for the
   * client going away. `session`: the browser session that made the poll (see `sessionsEnded`),
   * null for API credentials.
   */
  wait(q: EventQueue, lastEventId: number | undefined, dontBlock: boolean, onClose: (fn: () => void) => void, session: string | null = null): Promise<QueuedEvent[]> {
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { lastEventId: -1, session, respond: resolve, fail: reject };
      const ready = this.listen(q, lastEventId, dontBlock, waiter);
      if (ready) return resolve(ready);
      onClose(() => q.abandon(waiter));
    });
  }

  /**
   * `wait` for a caller told by its waiter, with no promise or callbacks made per poll: returns
   * the events to answer with now, or null when `waiter` waits on the queue (to be answered
   * through its `respond` or `fail`; `q.abandon(waiter)` when its client goes away).
   * `waiter.lastEventId` is set here.
   */
  listen(q: EventQueue, lastEventId: number | undefined, dontBlock: boolean, waiter: Waiter): QueuedEvent[] | null {
    if (lastEventId !== undefined) q.prune(lastEventId);
    const now = Date.now();
    q.data.lastActivity = now;
    const after = lastEventId ?? -1;
    const ready = q.newerThan(after);
    // A newer poll on the same queue ends the older one.
    q.release();
    if (dontBlock || (ready.length > 0 && !q.tooSoon(now))) {
      if (ready.length > 0) q.answered(now);
      return ready;
    }
    waiter.lastEventId = after;
    q.waiter = waiter;
    // Events are waiting, but the last answer went out less than the gap ago: they go at its end.
    if (ready.length > 0) q.flushOrDefer(now);
    // 90% to 110% of the period in steps of 1%: timers of one duration share a list of the
    // runtime's, where a duration of its own would cost a heap insertion and removal per poll.
    q.beatAfter((90 + Math.floor(Math.random() * 21)) * this.opts.heartbeatSeconds * 10);
    return null;
  }

  /**
   * Ends with 401 the waiting polls of the user that were made with a browser session no longer
   * live (log out everywhere, a new password, deactivation), as their next request would be
   * refused; polls with API credentials and with live sessions go on.
   */
  sessionsEnded(userId: number): void {
    const live = this.opts.sessionLive;
    if (!live) return;
    for (const q of this.ofUser.get(userId) ?? []) {
      const w = q.waiter;
      if (!w?.session) continue;
      live(w.session).then(
        (isLive) => {
          if (!isLive && q.waiter === w) q.endSession(notLoggedIn());
        },
        (err: unknown) => this.opts.log.warn({ err }, 'could not check the session of a long-poll'),
      );
    }
  }

  /** Removes the queues idle longer than the timeout. */
  collect(now = Date.now()): number {
    let n = 0;
    for (const q of this.queues.values()) {
      if (this.expired(q, now)) {
        this.remove(q);
        n++;
      }
    }
    if (n > 0) this.opts.log.debug({ collected: n, left: this.queues.size }, 'collected idle event queues');
    return n;
  }

  /** Stops timers and answers every waiting poll, so a shutdown is not held up by long-polls. */
  stop(): void {
    this.stopped = true;
    if (this.gcTimer) clearInterval(this.gcTimer);
    this.gcTimer = null;
    for (const q of this.queues.values()) q.release();
  }

  /** Records every queue held here in the directory (after restoring saved queues). */
  claimAll(): void {
    for (const id of this.queues.keys()) this.directory?.claim(id);
  }

  /** Every queue's data, for saving across a restart. */
  save(): QueueData[] {
    return [...this.queues.values()].map((q) => q.data);
  }

  /** Takes back saved queues; the downtime does not count as the clients' idleness. */
  restore(saved: QueueData[]): void {
    const now = Date.now();
    for (const data of saved) {
      if (this.queues.has(data.id)) continue;
      this.add({ ...data, lastActivity: now });
    }
  }
}
