// What one event type tells the rest of the server, declared in its own module under
// event-types/ and listed in registry.ts: its payload (what actions send), how one event becomes
// the form a given client asked for (or nothing), which queues take it, the register snapshot
// groups it keeps current and how a client's snapshot applies it. No switch over every type
// exists anywhere. This file imports nothing from the event-type modules, so they may import it.
import type { AppContext } from '../context.ts';
import type { Realm, User } from '../db/schema.ts';
import type { Term } from '../lib/narrow.ts';
import type { BaseEvent } from './types.ts';

/** The client options of a queue that shape its events. */
export interface ClientOptions {
  userId: number;
  realmId: number;
  queueId: string | null;
  applyMarkdown: boolean;
  clientExternalAvatar: boolean;
  includeSubscribers: boolean;
  allPublicStreams: boolean;
  narrow: Term[];
  capabilities: ClientCapabilities;
  /** The snapshot's presences are by user ID (modern) rather than by email (legacy). */
  slimPresence?: boolean;
}

export interface ClientCapabilities {
  notification_settings_null: boolean;
  bulk_message_deletion: boolean;
  user_avatar_url_field_optional: boolean;
  stream_typing_notifications: boolean;
  user_settings_object: boolean;
  linkifier_url_template: boolean;
}

/** A register snapshot: the fields of the groups the client fetched. */
export type State = Record<string, unknown>;

export interface SnapshotContext {
  app: AppContext;
  realm: Realm;
  /** Null for an unauthenticated register in a realm with public access. */
  user: User | null;
  /** The client's capabilities and options from POST /register. */
  clientCapabilities: Record<string, boolean>;
  applyMarkdown: boolean;
  clientExternalAvatar: boolean;
  includeSubscribers: boolean;
  slimPresence: boolean;
}

/** A register snapshot group: the fields it adds for one name of `fetch_event_types`. */
export type SnapshotGroup = (ctx: SnapshotContext) => Promise<Record<string, unknown>>;

/** Updates a snapshot as the client would on receiving the (client-form) event. Idempotent. */
export type Apply = (state: State, event: BaseEvent, client: ClientOptions) => void;

interface Delivery<E> {
  /** The event type, as in the payload's `type`. */
  readonly type: string;
  /**
   * The events this client gets for one published event: usually the event itself, possibly
   * reshaped (per-client message content, legacy forms, capabilities), or none. Internal fields
   * end here.
   */
  forClient?(event: E, client: ClientOptions): BaseEvent[];
  /** Event types `forClient` may produce besides the published one (for `event_types` filtering). */
  readonly alsoAs?: readonly string[];
  /**
   * Clients with the same key get the same forms, so one publish computes them once per key
   * (a message to a large stream reaches many queues with a few distinct option sets).
   */
  formKey?(event: E, client: ClientOptions): string;
  /** Queue filtering beyond `event_types`: whether this queue takes the event (a narrow). */
  accepts?(event: E, client: ClientOptions): boolean;
  /**
   * The realm whose `all_public_streams` queues take the event although it was not sent to
   * their user (null: none), and the form they get then.
   */
  readonly publicStreams?: { realmOf(event: E): number | null; unreceived(event: E): E };
  /** Snapshot groups that no event changes (constants), by their `fetch_event_types` name. */
  readonly fixedSnapshot?: Readonly<Record<string, SnapshotGroup>>;
  /** Never set: carries the payload type for the registry. */
  readonly payload?: E;
}

/**
 * One event type. Its snapshot groups (by their `fetch_event_types` name) change only through
 * its events, so a type with a snapshot must say how a snapshot applies them: a change that
 * commits while `register` is answered reaches the new client that way (register.ts).
 */
export type EventType<E extends { type: string } = BaseEvent> = Delivery<E> &
  ({ readonly snapshot: Readonly<Record<string, SnapshotGroup>>; readonly apply: Apply } | { readonly snapshot?: undefined; readonly apply?: Apply });

/** Declares an event type whose actions send payloads of type `E`. */
export function defineEventType<E extends { type: string }>(def: EventType<E> & { type: E['type'] }): EventType<E> {
  return def;
}
