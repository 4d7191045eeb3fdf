// Presence formats: the modern one (timestamps by user ID) and the legacy one (a status per
// client, keyed by email), computed from when a user was last connected and last active.
import type { Conn, Tx } from '../db/database.ts';
import type { Realm } from '../db/schema.ts';
import { presenceInRealm, type PresenceRow } from '../db/queries/presence.ts';
import { parseSettings, USER_SETTING_DEFAULTS } from './settings-registry.ts';
import { realmSettings } from './realm.ts';

/** Clients more than this many seconds silent are shown offline; GET /realm/presence window. */
export const PRESENCE = { offlineThresholdSeconds: 140, legacyActiveOffsetSeconds: 70, realmWindowDays: 14 } as const;

export interface LegacyClientPresence {
  client: string;
  status: 'active' | 'idle';
  timestamp: number;
  pushable: boolean;
}

export function modernPresence(row: PresenceRow): { active_timestamp: number; idle_timestamp: number } {
  return { active_timestamp: row.last_active_time ?? 0, idle_timestamp: row.last_connected_time };
}

function legacyClient(row: PresenceRow): LegacyClientPresence {
  const active = row.last_active_time !== null && row.last_active_time + PRESENCE.legacyActiveOffsetSeconds >= row.last_connected_time;
  return active
    ? { client: 'website', status: 'active', timestamp: row.last_active_time!, pushable: false }
    : { client: 'website', status: 'idle', timestamp: row.last_connected_time, pushable: false };
}

export function legacyPresence(row: PresenceRow): { aggregated: { client: string; status: string; timestamp: number }; website: LegacyClientPresence } {
  const website = legacyClient(row);
  return { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
}

/** The presence event of the reference at our feature level (legacy format for one client). */
export function presenceEvent(
  row: PresenceRow,
  email: string,
  now: number,
): { type: 'presence'; user_id: number; email: string; server_timestamp: number; presence: { website: LegacyClientPresence } } {
  return { type: 'presence', user_id: row.user_id, email, server_timestamp: now, presence: { website: legacyClient(row) } };
}

/** Presence of the realm's users who show it, keyed by user ID (modern) or email (legacy). */
export async function realmPresences(db: Conn | Tx, realm: Realm, slim: boolean, now: number): Promise<Record<string, unknown>> {
  if (realmSettings(realm).presence_disabled) return {};
  const rows = await presenceInRealm(db, realm.id, now - PRESENCE.realmWindowDays * 86400);
  const out: Record<string, unknown> = {};
  for (const row of rows) {
    if (!parseSettings(USER_SETTING_DEFAULTS, row.settings).presence_enabled) continue;
    if (slim) out[String(row.user_id)] = modernPresence(row);
    else out[row.email] = legacyPresence(row);
  }
  return out;
}

