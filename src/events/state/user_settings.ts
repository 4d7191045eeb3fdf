// Register snapshot: user_settings (the caller's settings with the defaults filled in).
// Without the user_settings_object capability the reference also puts each setting at the top
// level; that translation belongs to the register code.
import { AVAILABLE_SOUNDS, EMOJISET_CHOICES } from '../../lib/settings-registry.ts';
import { userSettings } from '../../lib/user-settings.ts';
import type { SnapshotGroup } from './types.ts';

export const userSettingsSnapshot: SnapshotGroup = async ({ user }) => {
  if (!user) return {};
  return { user_settings: { ...userSettings(user), available_notification_sounds: [...AVAILABLE_SOUNDS], emojiset_choices: EMOJISET_CHOICES } };
};
