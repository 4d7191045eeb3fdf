// A user's current settings and the events that announce a change of one; the settings
// themselves are declared in settings-registry.ts.
import type { User } from '../db/schema.ts';
import { parseSettings, USER_SETTING_DEFAULTS, userSetting, type UserSettings } from './settings-registry.ts';

/** The user's settings; the time zone lives in its own column of users. */
export function userSettings(user: Pick<User, 'settings' | 'timezone'>): UserSettings {
  return { ...parseSettings(USER_SETTING_DEFAULTS, user.settings), timezone: user.timezone };
}

export type SettingEvent = Record<string, unknown> & { type: string };

/** A `user_settings` update (the payload of src/events/event-types/user_settings.ts). */
export type UserSettingUpdate = { type: 'user_settings'; op: 'update'; property: string; value: unknown; language_name?: string };

/** The `user_settings` event for a change of one setting, with the extra fields it declares. */
export function userSettingEvent(name: string, value: unknown): UserSettingUpdate {
  const extra = userSetting(name)?.eventExtra?.(value as never) as { language_name?: string } | undefined;
  return { type: 'user_settings', op: 'update', property: name, value, ...extra };
}

/**
 * The legacy event for a `user_settings` update, for clients without the user_settings_object
 * capability (`update_display_settings` or `update_global_notifications`, as the setting
 * declares), or null when the setting has none. `email` is the user's API email.
 */
export function legacySettingEvent(event: { property: string; value: unknown; language_name?: string }, email: string): SettingEvent | null {
  const type = userSetting(event.property)?.legacy;
  if (type === 'update_display_settings') {
    const legacy: SettingEvent = { type, user: email, setting_name: event.property, setting: event.value };
    if (event.language_name !== undefined) legacy.language_name = event.language_name;
    return legacy;
  }
  if (type === 'update_global_notifications') return { type, user: email, notification_name: event.property, setting: event.value };
  return null;
}
