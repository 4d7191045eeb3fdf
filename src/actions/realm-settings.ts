// Changing the organization's settings (PATCH /realm) and its defaults for new users' settings.
// What each setting accepts, who may change it and its event come from the settings registry.
import type { AppContext } from '../context.ts';
import type { Realm, User } from '../db/schema.ts';
import { lockRealm, realmUserDefaultOverrides, saveRealmSettingOverrides, saveRealmUserDefaultOverrides, updateRealmColumns } from '../db/queries/realm-admin.ts';
import { streamById } from '../db/queries/streams.ts';
import { activeUserIdsInRealm } from '../db/queries/users.ts';
import { requireAdmin, requireOwner } from '../lib/permissions.ts';
import { badRequest } from '../lib/errors.ts';
import { realmSettings } from '../lib/realm.ts';
import { realmSettingEvent } from '../lib/realm-settings.ts';
import { REALM_SETTING_DEFAULTS, realmSetting, setOverride, storedOverrides, USER_SETTING_DEFAULTS } from '../lib/settings-registry.ts';
import { mergeUserSettingDefaults } from '../lib/user-defaults.ts';
import { runAction } from './action.ts';
import { emitFullMembersChange } from './user-groups.ts';

/** Values parsed by their declarations in the settings registry, by setting name. */
export type RealmChanges = Record<string, unknown>;

export async function checkUpdateRealm(app: AppContext, caller: User, realm: Realm, changes: RealmChanges): Promise<void> {
  requireAdmin(caller);
  const given = Object.entries(changes).filter(([, v]) => v !== undefined);
  for (const [name] of given) {
    if (realmSetting(name)?.who === 'owner') requireOwner(caller);
  }
  await runAction(app, async (scope) => {
    for (const [name, value] of given) {
      if (!realmSetting(name)?.stream || value === -1) continue;
      const stream = await streamById(scope.tx, realm.id, value as number);
      if (!stream) throw badRequest('Invalid stream ID');
    }
    const current = (await lockRealm(scope.tx, realm.id, app.db.dialect)) ?? realm;
    const before: Record<string, unknown> = { ...realmSettings(current), name: current.name, description: current.description };
    const overrides = storedOverrides(current.settings);
    const recipients = await activeUserIdsInRealm(scope.tx, realm.id);
    const changed = given.filter(([name, value]) => before[name] !== value);
    const columns = Object.fromEntries(changed.filter(([name]) => realmSetting(name)?.column)) as { name?: string; description?: string };
    if (Object.keys(columns).length > 0) await updateRealmColumns(scope.tx, realm.id, columns);
    // Events in declaration order (the name and description first).
    for (const [name, value] of changed) {
      if (!realmSetting(name)?.column) setOverride(overrides, REALM_SETTING_DEFAULTS, name, value);
      scope.emit(realmSettingEvent(name, value), recipients);
      if (name === 'waiting_period_threshold') await emitFullMembersChange(scope, realm.id, before[name] as number, value as number);
    }
    if (changed.some(([name]) => !realmSetting(name)?.column)) await saveRealmSettingOverrides(scope.tx, realm.id, JSON.stringify(overrides));
  });
}

export async function checkUpdateRealmUserDefaults(app: AppContext, caller: User, realm: Realm, changes: Record<string, unknown>): Promise<void> {
  requireAdmin(caller);
  await runAction(app, async (scope) => {
    await lockRealm(scope.tx, realm.id, app.db.dialect);
    const overrides = await realmUserDefaultOverrides(scope.tx, realm.id);
    const before = mergeUserSettingDefaults(overrides);
    const recipients = await activeUserIdsInRealm(scope.tx, realm.id);
    let changed = false;
    for (const [property, value] of Object.entries(changes)) {
      if (value === undefined || before[property] === value) continue;
      changed = true;
      setOverride(overrides, USER_SETTING_DEFAULTS, property, value);
      scope.emit({ type: 'realm_user_settings_defaults', op: 'update', property, value }, recipients);
    }
    if (changed) await saveRealmUserDefaultOverrides(scope.tx, realm.id, JSON.stringify(overrides));
  });
}
