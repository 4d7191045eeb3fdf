// POST /register's work: allocate the queue, fetch the requested snapshot groups, then apply the
// events that reached the queue meanwhile, so the client neither misses nor double-counts one.
import type { AppContext } from '../context.ts';
import type { Realm, User } from '../db/schema.ts';
import { SERVICE_FEATURE_LEVEL, SERVICE_MERGE_BASE, SERVICE_VERSION } from '../lib/limits.ts';
import type { ClientCapabilities, ClientOptions, State } from './event-type.ts';
import { eventTypeOf, snapshotGroups } from './registry.ts';
import type { QueuedEvent } from './types.ts';

export interface RegisterInput {
  client: Omit<ClientOptions, 'queueId'>;
  slimPresence: boolean;
  eventTypes: string[] | null;
  fetchEventTypes: string[] | null;
}

/**
 * Points inside `register` where a test may run an action, to reproduce deterministically a
 * change that commits while the queue exists but the snapshot is (or is not yet) read.
 */
export const registerHooks: { afterQueue: (() => Promise<void>) | null; afterSnapshot: (() => Promise<void>) | null } = {
  afterQueue: null,
  afterSnapshot: null,
};

export const CAPABILITY_NAMES: (keyof ClientCapabilities)[] = [
  'notification_settings_null',
  'bulk_message_deletion',
  'user_avatar_url_field_optional',
  'stream_typing_notifications',
  'user_settings_object',
  'linkifier_url_template',
];

/** The snapshot groups named by `fetch_event_types` (else `event_types`, else all of them). */
export async function fetchState(app: AppContext, realm: Realm, user: User | null, input: RegisterInput): Promise<State> {
  const wanted = input.fetchEventTypes ?? input.eventTypes;
  const state: State = {};
  for (const [name, group] of Object.entries(snapshotGroups)) {
    if (wanted !== null && !wanted.includes(name)) continue;
    Object.assign(
      state,
      await group({
        app,
        realm,
        user,
        clientCapabilities: { ...input.client.capabilities },
        applyMarkdown: input.client.applyMarkdown,
        clientExternalAvatar: input.client.clientExternalAvatar,
        includeSubscribers: input.client.includeSubscribers,
        slimPresence: input.slimPresence,
      }),
    );
  }
  return state;
}

/** Applies client-form events to a snapshot, as the client would. */
export function applyEvents(state: State, events: readonly QueuedEvent[], client: ClientOptions): void {
  for (const event of events) eventTypeOf(event.type)?.apply?.(state, event, client);
}

export async function register(app: AppContext, realm: Realm, user: User | null, input: RegisterInput): Promise<Record<string, unknown>> {
  const base = { service_feature_level: SERVICE_FEATURE_LEVEL, service_version: SERVICE_VERSION, service_merge_base: SERVICE_MERGE_BASE };
  if (!user || !app.queues) {
    const state = await fetchState(app, realm, user, input);
    return { queue_id: null, last_event_id: -1, ...base, ...state };
  }
  const queue = app.queues.create(input.client, input.eventTypes);
  if (registerHooks.afterQueue) await registerHooks.afterQueue();
  const state = await fetchState(app, realm, user, input);
  if (registerHooks.afterSnapshot) await registerHooks.afterSnapshot();
  const arrived = queue.newerThan(-1);
  applyEvents(state, arrived, queue.data.client);
  const lastEventId = arrived.at(-1)?.id ?? -1;
  queue.prune(lastEventId);
  return { queue_id: queue.id, last_event_id: lastEventId, ...base, ...state };
}
