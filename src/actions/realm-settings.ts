// Changing the organization's settings (PATCH /realm) and its defaults for new users' settings.
import type { AppContext } from '../context.ts';
import type { Realm, User } from '../db/schema.ts';
import { lockRealm, realmUserDefaultOverrides, saveRealmSettingOverrides, saveRealmUserDefaultOverrides, updateRealmColumns } from '../db/queries/realm-admin.ts';
import { streamById } from '../db/queries/streams.ts';
import { activeUserIdsInRealm } from '../db/queries/users.ts';
import { isOwner, requireAdmin } from '../lib/access.ts';
import { badRequest, ownerRequired } from '../lib/errors.ts';
import { REALM_SETTING_DEFAULTS, USER_SETTING_DEFAULTS } from '../lib/limits.ts';
import { realmSettings } from '../lib/realm.ts';
import { REALM_SETTING_SPECS } from '../lib/realm-setting-specs.ts';
import { mergeUserSettingDefaults } from '../lib/user-defaults.ts';
import { runAction } from './action.ts';
import { emitFullMembersChange } from './user-groups.ts';

export interface RealmChanges {
  name?: string | undefined;
  description?: string | undefined;
  /** Parsed values of REALM_SETTING_SPECS, by setting name. */
  settings: Record<string, unknown>;
}

function parseOverrides(stored: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(stored);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function checkUpdateRealm(app: AppContext, caller: User, realm: Realm, changes: RealmChanges): Promise<void> {
  requireAdmin(caller);
  for (const name of Object.keys(changes.settings)) {
    if (REALM_SETTING_SPECS[name]?.ownerOnly && !isOwner(caller)) throw ownerRequired();
  }
  await runAction(app, async (scope) => {
    for (const [name, value] of Object.entries(changes.settings)) {
      if (!REALM_SETTING_SPECS[name]?.stream || value === -1) continue;
      const stream = await streamById(scope.tx, realm.id, value as number);
      if (!stream) throw badRequest('Invalid stream ID');
    }
    const current = (await lockRealm(scope.tx, realm.id, app.db.dialect)) ?? realm;
    const before = realmSettings(current) as Record<string, unknown>;
    const overrides = parseOverrides(current.settings);
    const recipients = await activeUserIdsInRealm(scope.tx, realm.id);
    const columns: { name?: string; description?: string } = {};
    if (changes.name !== undefined && changes.name !== current.name) columns.name = changes.name;
    if (changes.description !== undefined && changes.description !== current.description) columns.description = changes.description;
    if (Object.keys(columns).length > 0) await updateRealmColumns(scope.tx, realm.id, columns);
    for (const [property, value] of Object.entries(columns)) {
      scope.emit({ type: 'realm', op: 'update', property, value }, recipients);
    }
    let changed = false;
    for (const [name, value] of Object.entries(changes.settings)) {
      if (before[name] === value) continue;
      changed = true;
      if ((REALM_SETTING_DEFAULTS as Record<string, unknown>)[name] === value) delete overrides[name];
      else overrides[name] = value;
      scope.emit(
        REALM_SETTING_SPECS[name]?.dict
          ? { type: 'realm', op: 'update_dict', property: 'default', data: { [name]: value } }
          : { type: 'realm', op: 'update', property: name, value },
        recipients,
      );
      if (name === 'waiting_period_threshold') await emitFullMembersChange(scope, realm.id, before[name] as number, value as number);
    }
    if (changed) await saveRealmSettingOverrides(scope.tx, realm.id, JSON.stringify(overrides));
  });
}

export async function checkUpdateRealmUserDefaults(app: AppContext, caller: User, realm: Realm, changes: Record<string, unknown>): Promise<void> {
  requireAdmin(caller);
  await runAction(app, async (scope) => {
    await lockRealm(scope.tx, realm.id, app.db.dialect);
    const overrides = await realmUserDefaultOverrides(scope.tx, realm.id);
    const before = mergeUserSettingDefaults(overrides) as Record<string, unknown>;
    const recipients = await activeUserIdsInRealm(scope.tx, realm.id);
    let changed = false;
    for (const [property, value] of Object.entries(changes)) {
      if (before[property] === value) continue;
      changed = true;
      if ((USER_SETTING_DEFAULTS as Record<string, unknown>)[property] === value) delete overrides[property];
      else overrides[property] = value;
      scope.emit({ type: 'realm_user_settings_defaults', op: 'update', property, value }, recipients);
    }
    if (changed) await saveRealmUserDefaultOverrides(scope.tx, realm.id, JSON.stringify(overrides));
  });
}
