// The legacy settings groups, `update_display_settings` and `update_global_notifications`: for
// clients without the `user_settings_object` capability, the settings as top-level fields (the
// reference's lists; `default_view` is `web_home_view`'s name at our feature level).
import { AVAILABLE_SOUNDS, DISPLAY_SETTINGS, EMOJISET_CHOICES, NOTIFICATION_SETTINGS, userSettings } from '../../lib/user-settings.ts';
import type { SnapshotContext, SnapshotGroup } from './types.ts';

/** Display settings the reference added to the legacy group after its first list. */
const LATER_DISPLAY_SETTINGS = ['enter_sends', 'enable_drafts_synchronization'];

function pick(ctx: SnapshotContext, names: Iterable<string>): Record<string, unknown> | null {
  if (!ctx.user || ctx.clientCapabilities.user_settings_object) return null;
  const settings = userSettings(ctx.user) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const name of names) out[name] = settings[name];
  return out;
}

export const updateDisplaySettingsGroup: SnapshotGroup = async (ctx) => {
  const fields = pick(ctx, [...DISPLAY_SETTINGS, ...LATER_DISPLAY_SETTINGS]);
  return fields ? { ...fields, emojiset_choices: EMOJISET_CHOICES } : {};
};

export const updateGlobalNotificationsGroup: SnapshotGroup = async (ctx) => {
  const fields = pick(ctx, NOTIFICATION_SETTINGS);
  return fields ? { ...fields, available_notification_sounds: [...AVAILABLE_SOUNDS] } : {};
};
