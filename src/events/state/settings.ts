// The `user_settings` and `realm_user_settings_defaults` groups, and the stop words.
import type { SnapshotGroup } from './types.ts';
import { userSettingsSnapshot } from './user_settings.ts';

export const userSettingsGroup: SnapshotGroup = async (ctx) => {
  const group = await userSettingsSnapshot(ctx);
  const settings = group.user_settings as Record<string, unknown> | undefined;
  if (!settings) return {};
  // Clients without the capability read the settings as top-level fields, as before it existed.
  return ctx.clientCapabilities.user_settings_object ? group : { ...group, ...settings };
};
