// The legacy settings groups, `update_display_settings` and `update_global_notifications`: for
// clients without the `user_settings_object` capability, the settings whose declaration names
// that legacy type (settings-registry.ts), as top-level fields.
import { AVAILABLE_SOUNDS, EMOJISET_CHOICES, legacySettingNames, type UserSettingDecl } from '../../lib/settings-registry.ts';
import { userSettings } from '../../lib/user-settings.ts';
import type { SnapshotContext, SnapshotGroup } from './types.ts';

function pick(ctx: SnapshotContext, type: NonNullable<UserSettingDecl['legacy']>): Record<string, unknown> | null {
  if (!ctx.user || ctx.clientCapabilities.user_settings_object) return null;
  const settings = userSettings(ctx.user) as Record<string, unknown>;
  return Object.fromEntries(legacySettingNames(type).map((name) => [name, settings[name]]));
}

export const updateDisplaySettingsGroup: SnapshotGroup = async (ctx) => {
  const fields = pick(ctx, 'update_display_settings');
  return fields ? { ...fields, emojiset_choices: EMOJISET_CHOICES } : {};
};

export const updateGlobalNotificationsGroup: SnapshotGroup = async (ctx) => {
  const fields = pick(ctx, 'update_global_notifications');
  return fields ? { ...fields, available_notification_sounds: [...AVAILABLE_SOUNDS] } : {};
};
