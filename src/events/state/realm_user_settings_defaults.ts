// The `realm_user_settings_defaults` snapshot group: the settings new users start with (every
// user setting but those declared `personal`).
import { realmUserSettingDefaults } from '../../lib/user-defaults.ts';
import type { SnapshotGroup } from './types.ts';

export const realmUserSettingsDefaultsGroup: SnapshotGroup = async ({ app, realm }) => {
  return { realm_user_settings_defaults: await realmUserSettingDefaults(app.db.kysely, realm.id) };
};
