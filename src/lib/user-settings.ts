// Personal settings: each setting's allowed values, and a user's current settings (the
// defaults of lib/limits with the user's stored overrides).
import type { User } from '../db/schema.ts';
import { badRequest } from './errors.ts';
import { parseSettings, USER_SETTING_DEFAULTS, type UserSettings } from './limits.ts';

export type SettingName = keyof UserSettings;

/** Languages with translations, code to name (the `language_name` of default_language events). */
export const LANGUAGES: Record<string, string> = {
  en: 'English',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  it: 'Italiano',
  ja: '日本語',
  ko: '한국어',
  nl: 'Nederlands',
  pl: 'Polski',
  pt: 'Português',
  'pt-br': 'Português Brasileiro',
  ru: 'Русский',
  tr: 'Türkçe',
  uk: 'Українська',
  'zh-hans': '简体中文',
  'zh-hant': '繁體中文',
};

export const NOTIFICATION_SOUNDS = ['none', 'zulip', 'chime', 'ding', 'heart', 'ping', 'chirp', 'done', 'xylophone', 'zulip-ring'] as const;

const oneOf = (...values: (string | number)[]) => (v: unknown): boolean => values.includes(v as string | number);

function isTimezone(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  if (v === '') return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: v });
    return true;
  } catch {
    return false;
  }
}

/** Allowed values of the settings that are not plain booleans. */
const CHECKS: Partial<Record<SettingName, (v: unknown) => boolean>> = {
  web_mark_read_on_scroll_policy: oneOf(1, 2, 3),
  color_scheme: oneOf(1, 2, 3),
  default_language: (v) => typeof v === 'string' && v in LANGUAGES,
  default_view: oneOf('recent_topics', 'all_messages'),
  emojiset: oneOf('google', 'google-blob', 'twitter', 'text'),
  demote_inactive_streams: oneOf(1, 2, 3),
  user_list_style: oneOf(1, 2, 3),
  timezone: isTimezone,
  notification_sound: oneOf(...NOTIFICATION_SOUNDS),
  desktop_icon_count_display: oneOf(1, 2, 3),
  realm_name_in_email_notifications_policy: oneOf(1, 2, 3),
  automatically_follow_topics_policy: oneOf(1, 2, 3, 4),
  automatically_unmute_topics_in_muted_streams_policy: oneOf(1, 2, 3, 4),
  email_address_visibility: oneOf(1, 2, 3, 4, 5),
  email_notifications_batching_period_seconds: (v) => Number.isSafeInteger(v) && (v as number) >= 120 && (v as number) <= 7 * 86400,
};

export const SETTING_NAMES = Object.keys(USER_SETTING_DEFAULTS) as SettingName[];

/** Newer names of settings that the reference renamed after our feature level. */
export const SETTING_ALIASES: Partial<Record<SettingName, string>> = {
  default_view: 'web_home_view',
  escape_navigates_to_default_view: 'web_escape_navigates_to_home_view',
};

/**
 * The settings that older clients hear about through `update_display_settings` and
 * `update_global_notifications`: those that existed when the user_settings event replaced them.
 */
export const DISPLAY_SETTINGS: ReadonlySet<string> = new Set([
  'twenty_four_hour_time', 'dense_mode', 'starred_message_counts', 'fluid_layout_width', 'high_contrast_mode', 'color_scheme',
  'translate_emoticons', 'default_language', 'default_view', 'escape_navigates_to_default_view', 'left_side_userlist', 'emojiset',
  'demote_inactive_streams', 'timezone',
]);

export const NOTIFICATION_SETTINGS: ReadonlySet<string> = new Set([
  'enable_stream_desktop_notifications', 'enable_stream_email_notifications', 'enable_stream_push_notifications',
  'enable_stream_audible_notifications', 'notification_sound', 'enable_desktop_notifications', 'enable_sounds',
  'enable_offline_email_notifications', 'message_content_in_email_notifications', 'enable_offline_push_notifications',
  'enable_online_push_notifications', 'enable_digest_emails', 'enable_marketing_emails', 'enable_login_emails', 'presence_enabled',
  'pm_content_in_desktop_notifications', 'wildcard_mentions_notify', 'desktop_icon_count_display',
  'realm_name_in_email_notifications_policy', 'email_notifications_batching_period_seconds',
]);

/** Checks one setting's value (already JSON-decoded where it is not a string). */
export function checkSettingValue(name: SettingName, value: unknown): unknown {
  const def = USER_SETTING_DEFAULTS[name];
  const check = CHECKS[name];
  if (typeof def === 'boolean' && typeof value !== 'boolean') throw badRequest(`${name} is not a boolean`);
  if (typeof def === 'number' && !Number.isSafeInteger(value)) throw badRequest(`${name} is not an integer`);
  if (typeof def === 'string' && typeof value !== 'string') throw badRequest(`${name} is not a string`);
  if (check && !check(value)) throw badRequest(`Invalid ${name}`);
  return value;
}

/** The user's settings; the time zone lives in its own column of users. */
export function userSettings(user: Pick<User, 'settings' | 'timezone'>): UserSettings {
  return { ...parseSettings(USER_SETTING_DEFAULTS, user.settings), timezone: user.timezone };
}

/** `available_notification_sounds` of the snapshot: the sounds other than 'none'. */
export const AVAILABLE_SOUNDS = NOTIFICATION_SOUNDS.filter((s) => s !== 'none');

/** `emojiset_choices` of the snapshot. */
export const EMOJISET_CHOICES = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
  { key: 'google-blob', text: 'Google blobs' },
];

/**
 * The legacy event for a `user_settings` update, for clients without the user_settings_object
 * capability (`update_display_settings` or `update_global_notifications`), or null when the
 * setting has none. `email` is the user's API email (the event goes to that user only).
 */
export function legacySettingEvent(event: { property: string; value: unknown; language_name?: string }, email: string): (Record<string, unknown> & { type: string }) | null {
  if (DISPLAY_SETTINGS.has(event.property)) {
    const legacy: Record<string, unknown> & { type: string } = { type: 'update_display_settings', user: email, setting_name: event.property, setting: event.value };
    if (event.language_name !== undefined) legacy.language_name = event.language_name;
    return legacy;
  }
  if (NOTIFICATION_SETTINGS.has(event.property)) {
    return { type: 'update_global_notifications', user: email, notification_name: event.property, setting: event.value };
  }
  return null;
}
