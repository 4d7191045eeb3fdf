// Where actions hand their events, after their transaction has committed.
import type { ParleyEvent } from './types.ts';

export interface EventHub {
  /** Delivers an event to every queue of these users that wants it. */
  publish(event: ParleyEvent, userIds: readonly number[]): void;
}

/** Keeps published events in memory; useful until queues exist, and in tests. */
export class RecordingHub implements EventHub {
  readonly published: { event: ParleyEvent; userIds: number[] }[] = [];
  publish(event: ParleyEvent, userIds: readonly number[]): void {
    this.published.push({ event, userIds: [...userIds] });
    if (this.published.length > 1000) this.published.shift();
  }
}
