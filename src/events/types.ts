// Events sent to clients' queues. The shapes follow the reference's event schemas; each event
// family declares its payloads in its own module (families/) and they are joined here.
import type { MessageEvent } from './families/message.ts';
import type { RealmUserEvent } from './families/realm_user.ts';
import type { StreamEvent } from './families/stream.ts';
import type { SubscriptionEvent } from './families/subscription.ts';

export interface BaseEvent {
  type: string;
  [field: string]: unknown;
}

export interface HeartbeatEvent extends BaseEvent {
  type: 'heartbeat';
}

/** The events this area knows the shape of; other areas add theirs as `BaseEvent` until typed. */
export type KnownEvent = MessageEvent | SubscriptionEvent | StreamEvent | RealmUserEvent | HeartbeatEvent;

export type ParleyEvent = KnownEvent | BaseEvent;

/** An event as it sits in a queue and reaches a client: with its queue-local id. */
export type QueuedEvent = BaseEvent & { id: number };
