// realm_user_settings_defaults events: one default setting for new users changed.
import { realmUserSettingDefaults } from '../../lib/user-defaults.ts';
import { defineEventType, type SnapshotGroup, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';

export type RealmUserSettingsDefaultsEvent = { type: 'realm_user_settings_defaults'; op: 'update'; property: string; value: unknown };

/** The group: the settings new users start with (every user setting but those declared `personal`). */
export const realmUserSettingsDefaultsGroup: SnapshotGroup = async ({ app, realm }) => {
  return { realm_user_settings_defaults: await realmUserSettingDefaults(app.db.kysely, realm.id) };
};

function apply(state: State, event: BaseEvent): void {
  const defaults = state.realm_user_settings_defaults as Record<string, unknown> | undefined;
  if (defaults && event.op === 'update' && typeof event.property === 'string') defaults[event.property] = event.value;
}

export const realmUserSettingsDefaultsEventType = defineEventType<RealmUserSettingsDefaultsEvent>({
  type: 'realm_user_settings_defaults',
  snapshot: { realm_user_settings_defaults: realmUserSettingsDefaultsGroup },
  apply,
});
