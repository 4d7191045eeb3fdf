// One client's event queue: its options, the events it has not acknowledged, and at most one
// waiting long-poll.
import type { ClientOptions } from './family.ts';
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

export class EventQueue {
  waiter: Waiter | null = null;
  private flushScheduled = false;

  constructor(readonly data: QueueData) {}

  get id(): string {
    return this.data.id;
  }

  wants(type: string): boolean {
    return this.data.eventTypes === null || this.data.eventTypes.includes(type) || type === 'heartbeat';
  }

  push(event: BaseEvent): void {
    const queued = { ...event, id: ++this.data.lastEventId } as QueuedEvent;
    this.data.events.push(queued);
    // Events published by one action arrive in the same tick: answer the poll once with all of them.
    if (this.waiter && !this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        this.flush();
      });
    }
  }

  /** Drops the events the client has acknowledged. */
  prune(lastEventId: number): void {
    if (this.data.events.length > 0 && this.data.events[0]!.id <= lastEventId) {
      this.data.events = this.data.events.filter((e) => e.id > lastEventId);
    }
  }

  newerThan(lastEventId: number): QueuedEvent[] {
    return this.data.events.filter((e) => e.id > lastEventId);
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
