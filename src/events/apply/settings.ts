// Shared by the user settings event types: in a snapshot a setting is in the `user_settings` object and,
// for clients without `user_settings_object`, a top-level field too.
import { legacySettingNames, type UserSettingDecl } from '../../lib/settings-registry.ts';
import { userSettings } from '../../lib/user-settings.ts';
import type { SnapshotContext, State } from '../event-type.ts';

export function setSetting(state: State, name: string, value: unknown): void {
  const settings = state.user_settings as Record<string, unknown> | undefined;
  if (settings && name in settings) settings[name] = value;
  if (name in state) state[name] = value;
}

/** The settings of a legacy group as top-level fields; null for clients with `user_settings_object`. */
export function legacySettings(ctx: SnapshotContext, type: NonNullable<UserSettingDecl['legacy']>): Record<string, unknown> | null {
  if (!ctx.user || ctx.clientCapabilities.user_settings_object) return null;
  const settings = userSettings(ctx.user) as Record<string, unknown>;
  return Object.fromEntries(legacySettingNames(type).map((name) => [name, settings[name]]));
}
