// The settings a realm's new users start with: USER_SETTING_DEFAULTS under the realm's overrides
// (PATCH /realm/user_settings_defaults). Users' own overrides (users.settings) go on top.
import type { Conn, Tx } from '../db/database.ts';
import { realmUserDefaultOverrides } from '../db/queries/realm-admin.ts';
import { USER_SETTING_DEFAULTS, type UserSettings } from './limits.ts';

export function mergeUserSettingDefaults(overrides: Record<string, unknown>): UserSettings {
  const out = { ...USER_SETTING_DEFAULTS } as Record<string, unknown>;
  for (const [k, v] of Object.entries(overrides)) if (k in out) out[k] = v;
  return out as UserSettings;
}

export async function realmUserSettingDefaults(db: Conn | Tx, realmId: number): Promise<UserSettings> {
  return mergeUserSettingDefaults(await realmUserDefaultOverrides(db, realmId));
}
