// The settings a realm's new users start with: the declared defaults under the realm's overrides
// (PATCH /realm/user_settings_defaults). Users' own overrides (users.settings) go on top.
import type { Conn, Tx } from '../db/database.ts';
import { realmUserDefaultOverrides } from '../db/queries/realm-admin.ts';
import { REALM_DEFAULT_NAMES, USER_SETTING_DEFAULTS, userSetting, withOverrides } from './settings-registry.ts';

/** The organization's defaults for new users: every user setting but each user's own (time zone). */
export function mergeUserSettingDefaults(overrides: Record<string, unknown>): Record<string, unknown> {
  const all = withOverrides(USER_SETTING_DEFAULTS, overrides) as Record<string, unknown>;
  return Object.fromEntries(REALM_DEFAULT_NAMES.map((n) => [n, all[n]]));
}

export async function realmUserSettingDefaults(db: Conn | Tx, realmId: number): Promise<Record<string, unknown>> {
  return mergeUserSettingDefaults(await realmUserDefaultOverrides(db, realmId));
}

/** The overrides a new user starts with: the organization's, but those new users do not take. */
export function newUserOverrides(overrides: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(overrides).filter(([name]) => {
      const decl = userSetting(name);
      return decl !== undefined && !decl.personal && !decl.notForNewUsers;
    }),
  );
}
