// A register snapshot group: the fields it adds for one event type of `fetch_event_types`.
import type { AppContext } from '../../context.ts';
import type { Realm, User } from '../../db/schema.ts';

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

export type SnapshotGroup = (ctx: SnapshotContext) => Promise<Record<string, unknown>>;
