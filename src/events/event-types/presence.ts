// presence events: a user came online or became active (the legacy per-client form). The
// snapshot holds either the legacy form by email or the modern timestamps by user ID.
import { realmPresences, type LegacyClientPresence, type presenceEvent } from '../../lib/presence.ts';
import { defineEventType, type ClientOptions, type SnapshotGroup, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';

export type PresenceEvent = ReturnType<typeof presenceEvent>;

/** The `presence` group: presences (modern by user ID with slim_presence, else legacy by email) and server_timestamp. */
export const presenceSnapshot: SnapshotGroup = async ({ app, realm, slimPresence }) => {
  const now = Math.floor(Date.now() / 1000);
  return { presences: await realmPresences(app.db.kysely, realm, slimPresence, now), server_timestamp: now };
};

function apply(state: State, event: BaseEvent, options: ClientOptions): void {
  const presences = state.presences as Record<string, Record<string, unknown>> | undefined;
  const client = (event.presence as Record<string, LegacyClientPresence> | undefined)?.website;
  if (!presences || !client) return;
  const byId = String(event.user_id);
  // Queues saved before slimPresence existed: the keys tell (user IDs are digits, emails are not).
  const keys = Object.keys(presences);
  const slim = options.slimPresence ?? (keys.length > 0 && keys.every((k) => /^\d+$/.test(k)));
  if (slim) {
    const old = presences[byId] as { active_timestamp: number; idle_timestamp: number } | undefined;
    presences[byId] = {
      active_timestamp: client.status === 'active' ? client.timestamp : (old?.active_timestamp ?? 0),
      idle_timestamp: client.timestamp,
    };
  } else {
    presences[String(event.email)] = { aggregated: { client: client.client, status: client.status, timestamp: client.timestamp }, website: { ...client } };
  }
}

export const presenceEventType = defineEventType<PresenceEvent>({ type: 'presence', snapshot: { presence: presenceSnapshot }, apply });
