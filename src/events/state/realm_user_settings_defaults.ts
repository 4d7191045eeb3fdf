// The `realm_user_settings_defaults` snapshot group: the settings new users start with.
import { realmUserSettingDefaults } from '../../lib/user-defaults.ts';
import type { SnapshotGroup } from './types.ts';

export const realmUserSettingsDefaultsGroup: SnapshotGroup = async ({ app, realm }) => {
  const { timezone: _timezone, ...defaults } = await realmUserSettingDefaults(app.db.kysely, realm.id);
  return { realm_user_settings_defaults: defaults };
};
