// One client's event queue: its options, the events it has not acknowledged, and at most one
// waiting long-poll.
import type { ClientOptions } from './family.ts';
import { queuedJson, shareJson } from './serialized.ts';
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
  respond(events: QueuedEvent[]): void;
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

  constructor(readonly data: QueueData) {}

  get id(): string {
    return this.data.id;
  }

  wants(type: string): boolean {
    return this.data.eventTypes === null || this.data.eventTypes.includes(type) || type === 'heartbeat';
  }

  /** Queues one event; `event` may be shared by many queues, whose JSON is then made once. */
  push(event: BaseEvent): void {
    const queued = { ...event, id: ++this.data.lastEventId } as QueuedEvent;
    shareJson(queued, event);
    this.data.events.push(queued);
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
  }

  newerThan(lastEventId: number): QueuedEvent[] {
    const events = this.data.events;
    // Events are in id order: the answer is the tail after the first newer one.
    let i = events.length;
    while (i > 0 && events[i - 1]!.id > lastEventId) i--;
    return events.slice(i);
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

  /** Ends the waiting poll with no events (a newer poll replaced it, or the server stops). */
  release(): void {
    const w = this.waiter;
    if (!w) return;
    this.waiter = null;
    w.respond([]);
  }
}

/** The JSON text of a poll's events, each made from its shared form's text where it has one. */
export function eventsJson(events: readonly QueuedEvent[]): string {
  let out = '[';
  for (let i = 0; i < events.length; i++) out += (i === 0 ? '' : ',') + queuedJson(events[i]!);
  return out + ']';
}
