// Where actions hand their events, after their transaction has committed. In one process the
// queue manager (manager.ts) is the hub; a multi-process bus publishes to every process's manager.
import type { ParleyEvent } from './registry.ts';

export interface EventHub {
  /** Delivers an event to every queue of these users that wants it. */
  publish(event: ParleyEvent, userIds: readonly number[]): void;
  /**
   * Some browser sessions of the user have ended (deleted and committed): the open long-polls
   * made with them end at once, with the 401 their next request would get.
   */
  sessionsEnded(userId: number): void;
}

/** Keeps published events in memory: for commands that run outside a serving process. */
export class RecordingHub implements EventHub {
  readonly published: { event: ParleyEvent; userIds: number[] }[] = [];
  publish(event: ParleyEvent, userIds: readonly number[]): void {
    this.published.push({ event, userIds: [...userIds] });
    if (this.published.length > 1000) this.published.shift();
  }
  sessionsEnded(): void {}
}
