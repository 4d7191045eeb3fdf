// The `realm_user_settings_defaults` snapshot group: the settings new users start with.
import { realmUserDefaultOverrides } from '../../db/queries/realm-admin.ts';
import { userSettingDefaults } from '../../actions/realm-settings.ts';
import type { SnapshotGroup } from './types.ts';

export const realmUserSettingsDefaultsGroup: SnapshotGroup = async ({ app, realm }) => {
  const { timezone: _timezone, ...defaults } = userSettingDefaults(await realmUserDefaultOverrides(app.db.kysely, realm.id));
  return { realm_user_settings_defaults: defaults };
};
