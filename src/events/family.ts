// What an event family tells the queues: how one event becomes the form a given client asked
// for (or nothing), and how a client's state applies it. Families are looked up by event type
// in families/index.ts, so no switch over every type exists anywhere.
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

export interface EventFamily {
  /**
   * The events this client gets for one published event: usually the event itself, possibly
   * reshaped (per-client message content, legacy forms), or none. Internal fields end here.
   */
  forClient?(event: BaseEvent, client: ClientOptions): BaseEvent[];
  /** Event types `forClient` may produce besides the published one (for `event_types` filtering). */
  alsoAs?: string[];
  /**
   * Clients with the same key get the same forms, so one publish computes them once per key
   * (a message to a large stream reaches many queues with a few distinct option sets).
   */
  formKey?(event: BaseEvent, client: ClientOptions): string;
  /** Updates a snapshot as the client would on receiving the (client-form) event. Idempotent. */
  apply?(state: State, event: BaseEvent, client: ClientOptions): void;
}
