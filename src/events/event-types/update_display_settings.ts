// update_display_settings events (legacy): one display setting, as a top-level field; made from
// user_settings events for clients without `user_settings_object` (user_settings.ts). Its group
// holds the settings declared with this legacy type (settings-registry.ts) as top-level fields.
import { EMOJISET_CHOICES } from '../../lib/settings-registry.ts';
import { legacySettings, setSetting } from '../apply/settings.ts';
import { defineEventType, type SnapshotGroup } from '../event-type.ts';

export type UpdateDisplaySettingsEvent = { type: 'update_display_settings'; user: string; setting_name: string; setting: unknown; language_name?: string };

export const updateDisplaySettingsGroup: SnapshotGroup = async (ctx) => {
  const fields = legacySettings(ctx, 'update_display_settings');
  return fields ? { ...fields, emojiset_choices: EMOJISET_CHOICES } : {};
};

export const updateDisplaySettingsEventType = defineEventType<UpdateDisplaySettingsEvent>({
  type: 'update_display_settings',
  snapshot: { update_display_settings: updateDisplaySettingsGroup },
  apply(state, event) {
    if (typeof event.setting_name === 'string') setSetting(state, event.setting_name, event.setting);
  },
});
