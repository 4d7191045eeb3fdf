// Events sent to clients' queues. The shapes follow the reference's event schemas; each event
// family is declared in its own module and joined here.

export interface BaseEvent {
  type: string;
  [field: string]: unknown;
}

export type ParleyEvent = BaseEvent;
