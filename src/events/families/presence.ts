// presence events: a user came online or became active (the legacy per-client form). The
// snapshot holds either the legacy form by email or the modern timestamps by user ID.
import type { LegacyClientPresence } from '../../lib/presence.ts';
import type { EventFamily, State } from '../family.ts';
import type { BaseEvent } from '../types.ts';

function apply(state: State, event: BaseEvent): void {
  const presences = state.presences as Record<string, Record<string, unknown>> | undefined;
  const client = (event.presence as Record<string, LegacyClientPresence> | undefined)?.website;
  if (!presences || !client) return;
  const byId = String(event.user_id);
  const slim = byId in presences || !(String(event.email) in presences) && Object.keys(presences).every((k) => /^\d+$/.test(k)) && Object.keys(presences).length > 0;
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

export const presenceFamily: EventFamily = { apply };
