// One client's event queue: its options, the events it has not acknowledged, and at most one
// waiting long-poll.
import type { ClientOptions } from './event-type.ts';
import { queuedJson } from './serialized.ts';
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
  for (const q of toFlush) {
    toFlush.delete(q);
    q.flush();
  }
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

  constructor(readonly data: QueueData) {
    this.#formsFrom = data.lastEventId + 1;
  }

  get id(): string {
    return this.data.id;
  }

  wants(type: string): boolean {
    return this.data.eventTypes === null || this.data.eventTypes.includes(type) || type === 'heartbeat';
  }

  /** Queues one event; `event` may be shared by many queues, whose JSON is then made once. */
  push(event: BaseEvent): void {
    const queued = { ...event, id: ++this.data.lastEventId } as QueuedEvent;
    this.data.events.push(queued);
    this.#forms.push(event);
    if (this.waiter) {
      if (toFlush.size === 0) setImmediate(flushAll);
      toFlush.add(this);
    }
  }

  /** Drops the events the client has acknowledged. */
  prune(lastEventId: number): void {
    if (this.data.events.length > 0 && this.data.events[0]!.id <= lastEventId) {
      this.data.events = this.data.events.filter((e) => e.id > lastEventId);
    }
    const drop = Math.min(this.#forms.length, lastEventId + 1 - this.#formsFrom);
    if (drop > 0) {
      this.#forms = this.#forms.slice(drop);
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

  /** Answers the waiting poll if there is something for it. */
  flush(): void {
    const w = this.waiter;
    if (!w) return;
    const events = this.newerThan(w.lastEventId);
    if (events.length === 0) return;
    this.waiter = null;
    this.data.lastActivity = Date.now();
    w.respond(events);
  }

  /** Ends the waiting poll with an error (its session has ended). */
  fail(err: Error): void {
    const w = this.waiter;
    if (!w) return;
    this.waiter = null;
    w.fail(err);
  }

  /** Ends the waiting poll with no events (a newer poll replaced it, or the server stops). */
  release(): void {
    const w = this.waiter;
    if (!w) return;
    this.waiter = null;
    w.respond([]);
  }
}
