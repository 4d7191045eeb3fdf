// The shape every event shares. Each event type declares its payload in its own module
// (event-types/), and registry.ts joins them into `ParleyEvent`, what actions may send.

export interface BaseEvent {
  type: string;
  [field: string]: unknown;
}

export interface HeartbeatEvent extends BaseEvent {
  type: 'heartbeat';
}

/** An event as it sits in a queue and reaches a client: with its queue-local id. */
export type QueuedEvent = BaseEvent & { id: number };
