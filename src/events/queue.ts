// One client's event queue: its options, the events it has not acknowledged, and at most one
// waiting long-poll.
import type { ClientOptions } from './event-type.ts';
import { queuedJson, queuedJsonBytes } from './serialized.ts';
import type { BaseEvent, QueuedEvent } from './types.ts';

/** What a queue saves across a restart. */
export interface QueueData {
  id: string;
  client: ClientOptions;
  /** Null means every event type. */
  eventTypes: string[] | null;
  events: QueuedEvent[];
  lastEventId: number;
  /** Milliseconds since the epoch of the last register or fetch. */
  lastActivity: number;
}

export interface Waiter {
  /** Events newer than this are what the poll wants. */
  lastEventId: number;
  /** The stored hash of the browser session that made the poll; null for API credentials. */
  session: string | null;
  respond(events: QueuedEvent[]): void;
  /** Ends the poll with an error instead. */
  fail(err: Error): void;
}

/**
 * Queues with a waiting poll that received events in this tick. Events published by one action
 * (or several in the same tick) arrive together: each poll is answered once with all of them,
 * and one callback answers every queue.
 */
const toFlush = new Set<EventQueue>();

function flushAll(): void {
  const now = Date.now();
  for (const q of toFlush) {
    toFlush.delete(q);
    q.flushOrDefer(now);
  }
}

/**
 * Queues whose waiting poll is held until their answer gap has passed, in the order they are
 * due, with one timer for the first. A queue is here at most once.
 */
const deferred: EventQueue[] = [];
let deferredTimer: NodeJS.Timeout | null = null;
let deferredTimerAt = Infinity;

function defer(q: EventQueue): void {
  // After the last queue due no later than it (each queue's gap has a share drawn at random, so
  // it is not simply the last).
  let lo = 0;
  let hi = deferred.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (deferred[mid]!.dueAt <= q.dueAt) lo = mid + 1;
    else hi = mid;
  }
  deferred.splice(lo, 0, q);
  armDeferred();
}

function armDeferred(): void {
  const first = deferred[0];
  if (!first || first.dueAt >= deferredTimerAt) return;
  if (deferredTimer) clearTimeout(deferredTimer);
  deferredTimerAt = first.dueAt;
  deferredTimer = setTimeout(flushDeferred, Math.max(0, first.dueAt - Date.now()));
}

function flushDeferred(): void {
  deferredTimer = null;
  deferredTimerAt = Infinity;
  const now = Date.now();
  let n = 0;
  while (n < deferred.length && deferred[n]!.dueAt <= now) n++;
  const due = deferred.splice(0, n);
  for (const q of due) q.flushDeferred();
  armDeferred();
}

export class EventQueue {
  waiter: Waiter | null = null;
  /**
   * The form each queued event was copied from (shared with the other queues that got the same
   * form, so its JSON is made once): `#forms[i]` is that of the event with id `#formsFrom + i`.
   * A restored queue's older events have none. An array rather than a property of the events
   * or a WeakMap: either costs more per event than the serialization it saves.
   */
  #forms: BaseEvent[] = [];
  #formsFrom: number;

  /**
   * Milliseconds at least between two answers with events while events keep coming: a poll that
   * comes back for events within this time of the last answer is held until it has passed, and
   * gets every event that arrived meanwhile in one answer. A queue answered longer ago than this
   * (any queue of a quiet server) is answered at once.
   */
  readonly #gapMs: number;
  /**
   * Until when the next answer with events is held: the gap after the last, and up to half a
   * gap more, drawn at each answer. Queues that one event woke together would otherwise stay
   * together, answered in the same turn every gap while events keep coming (50 answers and the
   * 50 polls that follow them held the event loop 3-6 ms, which a send arriving then waited out:
   * issue 19); drawn apart, they spread over the gap.
   */
  #heldUntil = -Infinity;
  /** The waiting poll's heartbeat timer. */
  #heartbeat: NodeJS.Timeout | null = null;
  /** In `deferred` (due at `dueAt`). */
  #deferred = false;
  dueAt = 0;

  constructor(
    readonly data: QueueData,
    gapMs = 0,
  ) {
    this.#formsFrom = data.lastEventId + 1;
    this.#gapMs = gapMs;
  }

  get id(): string {
    return this.data.id;
  }

  wants(type: string): boolean {
    return this.data.eventTypes === null || this.data.eventTypes.includes(type) || type === 'heartbeat';
  }

  /** Queues one event; `event` may be shared by many queues, whose JSON is then made once. */
  push(event: BaseEvent): void {
    // Not `{ ...event, id }`: on Node 20 that copy took five times as long, and it runs for
    // every receiver of every event (issue 19). The same properties in the same order.
    const queued = Object.assign({}, event) as QueuedEvent;
    queued.id = ++this.data.lastEventId;
    this.data.events.push(queued);
    this.#forms.push(event);
    if (this.waiter && !this.#deferred) {
      if (toFlush.size === 0) setImmediate(flushAll);
      toFlush.add(this);
    }
  }

  /** Whether an answer with events now would come too soon after the last one (see `#gapMs`). */
  tooSoon(now: number): boolean {
    return now < this.#heldUntil;
  }

  /** Records an answer with events going out now. */
  answered(now: number): void {
    this.#heldUntil = now + this.#gapMs * (1 + Math.random() / 2);
  }

  /** Answers the waiting poll at the end of the answer gap (at once if it has passed). */
  flushOrDefer(now: number): void {
    if (!this.waiter || this.#deferred) return;
    if (!this.tooSoon(now)) return this.flush();
    this.#deferred = true;
    this.dueAt = this.#heldUntil;
    defer(this);
  }

  flushDeferred(): void {
    this.#deferred = false;
    this.flush();
  }

  /** Drops the events the client has acknowledged. */
  prune(lastEventId: number): void {
    // Events are in id order: the acknowledged ones are a head, dropped in place (a poll that
    // acknowledged everything, the usual case, leaves the same array empty).
    const events = this.data.events;
    let acked = 0;
    while (acked < events.length && events[acked]!.id <= lastEventId) acked++;
    dropHead(events, acked);
    const drop = Math.min(this.#forms.length, lastEventId + 1 - this.#formsFrom);
    if (drop > 0) {
      dropHead(this.#forms, drop);
      this.#formsFrom += drop;
    }
  }

  newerThan(lastEventId: number): QueuedEvent[] {
    const events = this.data.events;
    // Events are in id order: the answer is the tail after the first newer one.
    let i = events.length;
    while (i > 0 && events[i - 1]!.id > lastEventId) i--;
    return events.slice(i);
  }

  /** The JSON text of these events of this queue, each made from its shared form's text where it has one. */
  eventsJson(events: readonly QueuedEvent[]): string {
    let out = '[';
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      out += (i === 0 ? '' : ',') + queuedJson(e, this.#forms[e.id - this.#formsFrom]);
    }
    return out + ']';
  }

  /** `head`, eventsJson's text of these events and `tail`, as UTF-8 bytes (each shared form's made once). */
  eventsBytes(events: readonly QueuedEvent[], head: string, tail: string): Buffer {
    return queuedJsonBytes(
      events,
      events.map((e) => this.#forms[e.id - this.#formsFrom]),
      head,
      tail,
    );
  }

  /** Answers the waiting poll if there is something for it. */
  flush(): void {
    const w = this.waiter;
    if (!w) return;
    const events = this.newerThan(w.lastEventId);
    if (events.length === 0) return;
    const now = Date.now();
    this.answered(now);
    this.data.lastActivity = now;
    this.#take().respond(events);
  }

  /** Ends the waiting poll with an error (its session has ended). */
  fail(err: Error): void {
    if (this.waiter) this.#take().fail(err);
  }

  /**
   * Ends the waiting poll of a session that has ended: with the events waiting for it when there
   * are any (the change that ended it, such as the person's deactivation, says why), else with
   * `err`. The poll after it is refused anyway.
   */
  endSession(err: Error): void {
    const w = this.waiter;
    if (!w) return;
    if (this.newerThan(w.lastEventId).length > 0) this.flush();
    else this.fail(err);
  }

  /** Ends the waiting poll with no events (a newer poll replaced it, or the server stops). */
  release(): void {
    if (!this.waiter) return;
    this.data.lastActivity = Date.now();
    this.#take().respond([]);
  }

  /** Forgets this waiting poll, whose client went away (nothing when another poll took its place). */
  abandon(w: Waiter): void {
    if (this.waiter !== w) return;
    this.data.lastActivity = Date.now();
    this.#take();
  }

  /** Starts the waiting poll's heartbeat: after `ms`, a heartbeat event answers it. */
  beatAfter(ms: number): void {
    if (this.#heartbeat) clearTimeout(this.#heartbeat);
    // The queue as the timer's argument: no closure per poll.
    this.#heartbeat = setTimeout(beat, ms, this);
  }

  /** Takes the waiting poll off the queue, with its heartbeat. */
  #take(): Waiter {
    const w = this.waiter!;
    this.waiter = null;
    if (this.#heartbeat) clearTimeout(this.#heartbeat);
    this.#heartbeat = null;
    return w;
  }

  /** The heartbeat timer went off: the waiting poll gets a heartbeat event. */
  heartbeatDue(): void {
    this.#heartbeat = null;
    if (!this.waiter) return;
    this.push({ type: 'heartbeat' });
    this.flush();
  }
}

function dropHead(list: unknown[], n: number): void {
  if (n >= list.length) list.length = 0;
  else if (n > 0) list.splice(0, n);
}

function beat(q: EventQueue): void {
  q.heartbeatDue();
}
