// The settings registry: every user setting, realm setting and new-user default is declared here
// once, with its default, its parser, who may change it and how snapshots and events carry it.
// PATCH /settings, PATCH /realm and PATCH /realm/user_settings_defaults take their parameters
// from these tables, their actions their checks and events, and the register snapshots
// (`user_settings`, the legacy groups, `realm`, `realm_user_settings_defaults`) their fields.
import { badRequest } from './errors.ts';
import { ADMIN_LIMITS, MAX_DB_ID } from './limits.ts';
import { BOT_CREATION_POLICY, COMMON_POLICY, OWNERS_ONLY_POLICY } from './permissions.ts';

/** One setting: its default and the parser of its raw request value (which throws a 400). */
export interface SettingDecl<T = unknown> {
  default: T;
  parse(raw: string, name: string): T;
}

/** A personal setting (PATCH /settings, the `user_settings` snapshot and event). */
export interface UserSettingDecl<T = unknown> extends SettingDecl<T> {
  /**
   * The event older clients (without `user_settings_object`) also get for a change, and the
   * legacy snapshot group showing the setting at the top level: the reference's lists of
   * settings that existed when `user_settings` replaced them. Undefined: none.
   */
  legacy?: 'update_display_settings' | 'update_global_notifications';
  /** The reference's newer name, accepted by the PATCH endpoints too. */
  alias?: string;
  /** Each user's own (the time zone): not an organization default (PATCH /realm/user_settings_defaults). */
  personal?: true;
  /** An organization default that new users do not take (as in the reference: the language, login emails). */
  notForNewUsers?: true;
  /** Extra fields of the `user_settings` event (and its legacy form). */
  eventExtra?(value: T): Record<string, unknown>;
}

/** An organization setting (PATCH /realm, the `realm` snapshot and event). */
export interface RealmSettingDecl<T = unknown> extends SettingDecl<T> {
  /** Who may change it: administrators, or owners only. */
  who: 'admin' | 'owner';
  /** `update` (one property), or `update_dict` with property `default` (the message-editing settings). */
  event: 'update' | 'update_dict';
  /** Its key in the `realm` snapshot, null when not shown there. */
  snapshot: string | null;
  /** A column of `realms` (name, description) rather than an override in `realms.settings`. */
  column?: true;
  /** -1 or a stream of the realm, checked by the action. */
  stream?: true;
  /** Not changed through PATCH /realm (set by the server). */
  fixed?: true;
}

// ---- Parsers -------------------------------------------------------------------------------

const invalid = (name: string) => badRequest(`Invalid ${name}`);

/** JSON-decodes a value; clients also send plain words (`unlimited`) and URLs unquoted. */
function json(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function parseBool(raw: string, name: string): boolean {
  const v = raw.trim().toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw badRequest(`${name} is not a boolean`);
}

function parseInteger(raw: string, name: string): number {
  const t = raw.trim();
  const n = /^-?\d+$/.test(t) ? Number(t) : NaN;
  if (!Number.isSafeInteger(n)) throw badRequest(`${name} is not an integer`);
  return n;
}

/** Strings arrive plain; older clients JSON-encode them, so one pair of quotes is dropped. */
function parseString(raw: string): string {
  if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) {
    try {
      const v: unknown = JSON.parse(raw);
      if (typeof v === 'string') return v;
    } catch {
      // not JSON: the plain string it is
    }
  }
  return raw;
}

function bool<D extends object>(def: boolean, extra?: D): SettingDecl<boolean> & D {
  return { default: def, parse: parseBool, ...(extra as D) };
}

/** An integer among `values`. */
function choice<D extends object>(def: number, values: readonly number[], extra?: D): SettingDecl<number> & D {
  return {
    default: def,
    parse(raw, name) {
      const v = parseInteger(raw, name);
      if (!values.includes(v)) throw invalid(name);
      return v;
    },
    ...(extra as D),
  };
}

/** An integer from `min` to `max`. */
function range<D extends object>(def: number, min: number, max: number, extra?: D): SettingDecl<number> & D {
  return {
    default: def,
    parse(raw, name) {
      const v = parseInteger(raw, name);
      if (v < min || v > max) throw invalid(name);
      return v;
    },
    ...(extra as D),
  };
}

/** A string passing `valid` (plain or JSON-encoded). */
function word<D extends object>(def: string, valid: (v: string) => boolean, extra?: D): SettingDecl<string> & D {
  return {
    default: def,
    parse(raw, name) {
      const v = parseString(raw);
      if (!valid(v)) throw invalid(name);
      return v;
    },
    ...(extra as D),
  };
}

const among = (values: readonly string[]) => (v: string): boolean => values.includes(v);

function isTimezone(v: string): boolean {
  if (v === '') return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: v });
    return true;
  } catch {
    return false;
  }
}

// ---- Value sets ----------------------------------------------------------------------------

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
const isLanguage = (v: string): boolean => Object.hasOwn(LANGUAGES, v);

export const NOTIFICATION_SOUNDS = ['none', 'zulip', 'chime', 'ding', 'heart', 'ping', 'chirp', 'done', 'xylophone', 'zulip-ring'] as const;

/** `available_notification_sounds` of the snapshot: the sounds other than 'none'. */
export const AVAILABLE_SOUNDS = NOTIFICATION_SOUNDS.filter((s) => s !== 'none');

/** `emojiset_choices` of the snapshot. */
export const EMOJISET_CHOICES = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
  { key: 'google-blob', text: 'Google blobs' },
];

/** The home views of our feature level (the spec's `recent_topics` or `all_messages`; `inbox` came later). */
export const HOME_VIEWS = ['recent_topics', 'all_messages'] as const;

export const VIDEO_CHAT_PROVIDERS = {
  disabled: { name: 'None', id: 0 },
  jitsi_meet: { name: 'Jitsi Meet', id: 1 },
} as const;

export const GIF_RATING_OPTIONS = {
  disabled: { name: 'GIPHY integration disabled', id: 0 },
  y: { name: 'Y: Very young audience', id: 1 },
  g: { name: 'G: General audience', id: 2 },
  pg: { name: 'PG: Parental guidance', id: 3 },
  'pg-13': { name: 'PG-13: Parental guidance - under 13', id: 4 },
  r: { name: 'R: Restricted', id: 5 },
} as const;

// ---- User settings -------------------------------------------------------------------------

const DISPLAY = { legacy: 'update_display_settings' } as const;
const NOTIFICATION = { legacy: 'update_global_notifications' } as const;
const ONE_TO_THREE = [1, 2, 3];
const ONE_TO_FOUR = [1, 2, 3, 4];

/** Personal settings with the server's defaults, in the order events and snapshots list them. */
export const USER_SETTINGS = {
  twenty_four_hour_time: bool(false, DISPLAY),
  dense_mode: bool(true, DISPLAY),
  web_mark_read_on_scroll_policy: choice(1, ONE_TO_THREE),
  starred_message_counts: bool(true, DISPLAY),
  fluid_layout_width: bool(false, DISPLAY),
  high_contrast_mode: bool(false, DISPLAY),
  color_scheme: choice(1, ONE_TO_THREE, DISPLAY),
  translate_emoticons: bool(false, DISPLAY),
  display_emoji_reaction_users: bool(true),
  default_language: word('en', isLanguage, {
    ...DISPLAY,
    notForNewUsers: true as const,
    eventExtra: (v: string) => ({ language_name: LANGUAGES[v] }),
  }),
  default_view: word('recent_topics', among(HOME_VIEWS), { ...DISPLAY, alias: 'web_home_view' }),
  escape_navigates_to_default_view: bool(true, { alias: 'web_escape_navigates_to_home_view' }),
  left_side_userlist: bool(false, DISPLAY),
  emojiset: word('google', among(EMOJISET_CHOICES.map((c) => c.key)), DISPLAY),
  demote_inactive_streams: choice(1, ONE_TO_THREE, DISPLAY),
  user_list_style: choice(2, ONE_TO_THREE),
  timezone: word('', isTimezone, { ...DISPLAY, personal: true as const }),
  enter_sends: bool(false, DISPLAY),
  enable_drafts_synchronization: bool(true, DISPLAY),
  enable_stream_desktop_notifications: bool(false, NOTIFICATION),
  enable_stream_email_notifications: bool(false, NOTIFICATION),
  enable_stream_push_notifications: bool(false, NOTIFICATION),
  enable_stream_audible_notifications: bool(false, NOTIFICATION),
  notification_sound: word('zulip', among(NOTIFICATION_SOUNDS), NOTIFICATION),
  enable_desktop_notifications: bool(true, NOTIFICATION),
  enable_sounds: bool(true, NOTIFICATION),
  enable_offline_email_notifications: bool(true, NOTIFICATION),
  message_content_in_email_notifications: bool(true, NOTIFICATION),
  enable_offline_push_notifications: bool(true, NOTIFICATION),
  enable_online_push_notifications: bool(true, NOTIFICATION),
  enable_digest_emails: bool(true, NOTIFICATION),
  enable_marketing_emails: bool(true, NOTIFICATION),
  enable_login_emails: bool(true, { ...NOTIFICATION, notForNewUsers: true as const }),
  presence_enabled: bool(true, NOTIFICATION),
  pm_content_in_desktop_notifications: bool(true, NOTIFICATION),
  wildcard_mentions_notify: bool(true, NOTIFICATION),
  desktop_icon_count_display: choice(1, ONE_TO_THREE, NOTIFICATION),
  realm_name_in_email_notifications_policy: choice(1, ONE_TO_THREE, NOTIFICATION),
  automatically_follow_topics_policy: choice(3, ONE_TO_FOUR),
  automatically_unmute_topics_in_muted_streams_policy: choice(3, ONE_TO_FOUR),
  automatically_follow_topics_where_mentioned: bool(true),
  send_private_typing_notifications: bool(true),
  send_stream_typing_notifications: bool(true),
  send_read_receipts: bool(true),
  email_address_visibility: choice(1, [1, 2, 3, 4, 5]),
  email_notifications_batching_period_seconds: range(120, 120, 7 * 86400, NOTIFICATION),
  enable_followed_topic_desktop_notifications: bool(true),
  enable_followed_topic_email_notifications: bool(true),
  enable_followed_topic_push_notifications: bool(true),
  enable_followed_topic_audible_notifications: bool(true),
  enable_followed_topic_wildcard_mentions_notify: bool(true),
} satisfies Record<string, UserSettingDecl<unknown>>;

type DefaultsOf<T extends Record<string, { default: unknown }>> = { [K in keyof T]: T[K]['default'] };

export type UserSettingName = keyof typeof USER_SETTINGS;
export type UserSettings = DefaultsOf<typeof USER_SETTINGS>;
export const USER_SETTING_NAMES = Object.keys(USER_SETTINGS) as UserSettingName[];
/** The declaration of a user setting, looked up by a name from a request or an event. */
export const userSetting = (name: string): UserSettingDecl | undefined =>
  Object.hasOwn(USER_SETTINGS, name) ? (USER_SETTINGS as Record<string, UserSettingDecl>)[name] : undefined;
export const USER_SETTING_DEFAULTS = defaultsOf(USER_SETTINGS);
/** The settings an organization sets for its new users (all but each user's own). */
export const REALM_DEFAULT_NAMES = USER_SETTING_NAMES.filter((n) => !userSetting(n)!.personal);
/** The settings of each legacy event type and snapshot group, in declaration order. */
export const legacySettingNames = (type: NonNullable<UserSettingDecl['legacy']>): UserSettingName[] =>
  USER_SETTING_NAMES.filter((n) => userSetting(n)!.legacy === type);

// ---- Realm settings ------------------------------------------------------------------------

const P = COMMON_POLICY;
const BASIC = [P.MEMBERS, P.ADMINS, P.FULL_MEMBERS, P.MODERATORS];
const ORG_TYPES = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000];

/** Shown as `realm_<name>`, announced as `update`, changed by administrators, unless `over` says otherwise. */
function realm<T>(decl: SettingDecl<T>, name: string, over: Partial<RealmSettingDecl<T>> = {}): RealmSettingDecl<T> {
  return { who: 'admin', event: 'update', snapshot: `realm_${name}`, ...decl, ...over };
}

/** A positive number of seconds, or `unlimited` (stored as null). */
function timeLimit(def: number | null): SettingDecl<number | null> {
  return {
    default: def,
    parse(raw, name) {
      const v = json(raw);
      if (v === 'unlimited' || v === null) return null;
      if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0 || v > 10 * 365 * 86400) throw badRequest(`Bad value for '${name}': ${raw}`);
      return v;
    },
  };
}

function text(def: string, maxLength: number, opts: { min?: number; valid?: (v: string) => boolean } = {}): SettingDecl<string> {
  return {
    default: def,
    parse(raw, name) {
      const v = raw.trim();
      if (v.length < (opts.min ?? 0)) throw badRequest(`${name} cannot be empty`);
      if (v.length > maxLength) throw badRequest(`${name} is too long (limit: ${maxLength} characters)`);
      if (opts.valid && !opts.valid(v)) throw invalid(name);
      return v;
    },
  };
}

const retentionDays: SettingDecl<number> = {
  default: -1,
  parse(raw, name) {
    const v = json(raw);
    if (v === 'unlimited' || v === -1) return -1;
    // Past the integer column's range is as bad a value on SQLite as on PostgreSQL.
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0 || v > MAX_DB_ID) throw badRequest(`Bad value for '${name}': ${raw}`);
    return v;
  },
};

const videoChatServerUrl: SettingDecl<string | null> = {
  default: null,
  parse(raw, name) {
    const v = json(raw);
    if (v === 'default' || v === null) return null;
    if (typeof v !== 'string' || v.length > 200 || !/^https?:\/\/[^\s/]+/.test(v)) throw badRequest(`${name} is not an allowed_type`);
    try {
      new URL(v);
    } catch {
      throw invalid(name);
    }
    return v;
  },
};

const streamId = (): SettingDecl<number> => range(-1, -1, Number.MAX_SAFE_INTEGER);
const fixed = <T>(def: T): SettingDecl<T> => ({
  default: def,
  parse(_raw, name) {
    throw invalid(name);
  },
});

/** Organization settings, in the order PATCH /realm announces them (the name and description first). */
export const REALM_SETTINGS = {
  name: realm(text('', ADMIN_LIMITS.maxRealmNameLength, { min: 1 }), 'name', { column: true }),
  description: realm(text('', ADMIN_LIMITS.maxRealmDescriptionLength), 'description', { column: true }),
  allow_message_editing: realm(bool(true), 'allow_message_editing', { event: 'update_dict' }),
  message_content_edit_limit_seconds: realm(timeLimit(600), 'message_content_edit_limit_seconds', { event: 'update_dict' }),
  edit_topic_policy: realm(choice(P.EVERYONE, [...BASIC, P.EVERYONE]), 'edit_topic_policy', { event: 'update_dict' }),
  move_messages_between_streams_policy: realm(choice(P.MEMBERS, [...BASIC, P.NOBODY]), 'move_messages_between_streams_policy'),
  move_messages_within_stream_limit_seconds: realm(timeLimit(604800), 'move_messages_within_stream_limit_seconds'),
  move_messages_between_streams_limit_seconds: realm(timeLimit(604800), 'move_messages_between_streams_limit_seconds'),
  allow_edit_history: realm(bool(true), 'allow_edit_history'),
  message_retention_days: realm(retentionDays, 'message_retention_days', { who: 'owner' }),
  // The realm's copy of a user setting (email_address_visibility is shown in user_settings).
  email_address_visibility: realm(choice(1, [1, 2, 3, 4, 5]), 'email_address_visibility', { snapshot: null }),
  invite_required: realm(bool(true), 'invite_required', { who: 'owner' }),
  invite_to_realm_policy: realm(choice(P.MEMBERS, [...BASIC, P.NOBODY]), 'invite_to_realm_policy', { who: 'owner' }),
  emails_restricted_to_domains: realm(bool(false), 'emails_restricted_to_domains', { who: 'owner' }),
  disallow_disposable_email_addresses: realm(bool(true), 'disallow_disposable_email_addresses', { who: 'owner' }),
  waiting_period_threshold: realm(range(0, 0, 1_000_000), 'waiting_period_threshold', { who: 'owner' }),
  create_public_stream_policy: realm(choice(P.MEMBERS, BASIC), 'create_public_stream_policy'),
  create_private_stream_policy: realm(choice(P.MEMBERS, BASIC), 'create_private_stream_policy'),
  create_web_public_stream_policy: realm(choice(P.ADMINS, [P.ADMINS, P.MODERATORS, P.NOBODY, OWNERS_ONLY_POLICY]), 'create_web_public_stream_policy'),
  invite_to_stream_policy: realm(choice(P.MEMBERS, BASIC), 'invite_to_stream_policy'),
  delete_own_message_policy: realm(choice(P.ADMINS, [...BASIC, P.EVERYONE]), 'delete_own_message_policy'),
  message_content_delete_limit_seconds: realm(timeLimit(null), 'message_content_delete_limit_seconds'),
  enable_spectator_access: realm(bool(false), 'enable_spectator_access'),
  notifications_stream_id: realm(streamId(), 'notifications_stream_id', { stream: true }),
  signup_notifications_stream_id: realm(streamId(), 'signup_notifications_stream_id', { stream: true }),
  org_type: realm(choice(0, ORG_TYPES), 'org_type', { who: 'owner' }),
  plan_type: realm(fixed(1), 'plan_type', { fixed: true }),
  mandatory_topics: realm(bool(false), 'mandatory_topics'),
  default_language: realm(text('en', 10, { min: 1, valid: isLanguage }), 'default_language'),
  bot_creation_policy: realm(choice(BOT_CREATION_POLICY.EVERYONE, Object.values(BOT_CREATION_POLICY)), 'bot_creation_policy'),
  presence_disabled: realm(bool(false), 'presence_disabled'),
  send_welcome_emails: realm(bool(true), 'send_welcome_emails'),
  digest_emails_enabled: realm(bool(false), 'digest_emails_enabled'),
  enable_read_receipts: realm(bool(true), 'enable_read_receipts'),
  video_chat_provider: realm(choice(1, Object.values(VIDEO_CHAT_PROVIDERS).map((p) => p.id)), 'video_chat_provider'),
  inline_image_preview: realm(bool(true), 'inline_image_preview'),
  inline_url_embed_preview: realm(bool(false), 'inline_url_embed_preview'),
  default_code_block_language: realm(text('', 100, { valid: (v) => /^[\w#+.-]*$/.test(v) }), 'default_code_block_language'),
  name_changes_disabled: realm(bool(false), 'name_changes_disabled'),
  email_changes_disabled: realm(bool(false), 'email_changes_disabled'),
  avatar_changes_disabled: realm(bool(false), 'avatar_changes_disabled'),
  want_advertise_in_communities_directory: realm(bool(false), 'want_advertise_in_communities_directory', { who: 'owner' }),
  user_group_edit_policy: realm(choice(P.MEMBERS, BASIC), 'user_group_edit_policy'),
  add_custom_emoji_policy: realm(choice(P.MEMBERS, BASIC), 'add_custom_emoji_policy'),
  wildcard_mention_policy: realm(choice(P.EVERYONE, [1, 2, 3, 5, 6, 7]), 'wildcard_mention_policy'),
  private_message_policy: realm(choice(1, [1, 2]), 'private_message_policy'),
  message_content_allowed_in_email_notifications: realm(bool(true), 'message_content_allowed_in_email_notifications'),
  digest_weekday: realm(range(1, 0, 6), 'digest_weekday'),
  giphy_rating: realm(choice(2, Object.values(GIF_RATING_OPTIONS).map((p) => p.id)), 'giphy_rating'),
  // The spec's name for the reference's jitsi_server_url; `video_chat_server_url` is the server's.
  video_chat_server_url: realm(videoChatServerUrl, 'video_chat_server_url', { snapshot: 'realm_video_chat_server_url' }),
  enable_guest_user_indicator: realm(bool(true), 'enable_guest_user_indicator'),
};

export type RealmSettingName = keyof typeof REALM_SETTINGS;
/** The declaration of a realm setting, looked up by a name from a request or an event. */
export const realmSetting = (name: string): RealmSettingDecl | undefined =>
  Object.hasOwn(REALM_SETTINGS, name) ? (REALM_SETTINGS as Record<string, RealmSettingDecl>)[name] : undefined;
/** The settings PATCH /realm changes. */
export const CHANGEABLE_REALM_SETTINGS = (Object.keys(REALM_SETTINGS) as RealmSettingName[]).filter((n) => !realmSetting(n)!.fixed);

type StoredRealmSettingName = { [K in RealmSettingName]: (typeof REALM_SETTINGS)[K] extends { column: true } ? never : K }[RealmSettingName];
/** Realm settings stored as overrides in `realms.settings` (the name and description have columns). */
export type RealmSettings = { [K in StoredRealmSettingName]: (typeof REALM_SETTINGS)[K]['default'] };
export const REALM_SETTING_DEFAULTS = Object.fromEntries(
  Object.entries(REALM_SETTINGS).filter(([, d]) => !(d as RealmSettingDecl).column).map(([n, d]) => [n, d.default]),
) as RealmSettings;

// ---- Stored overrides ----------------------------------------------------------------------

function defaultsOf<T extends Record<string, { default: unknown }>>(decls: T): DefaultsOf<T> {
  return Object.fromEntries(Object.entries(decls).map(([n, d]) => [n, d.default])) as DefaultsOf<T>;
}

/** The stored overrides (a JSON object) as an object; anything else is no overrides. */
export function storedOverrides(stored: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(stored);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Defaults under stored overrides; names that are not settings are left out. */
export function parseSettings<T extends object>(defaults: T, stored: string): T {
  return withOverrides(defaults, storedOverrides(stored));
}

export function withOverrides<T extends object>(defaults: T, overrides: Record<string, unknown>): T {
  const out = { ...defaults } as Record<string, unknown>;
  for (const [k, v] of Object.entries(overrides)) if (k in out) out[k] = v;
  return out as T;
}

/**
 * Records `value` for `name` in `overrides` (dropping the override when it is the default):
 * how every settings table (users.settings, realms.settings, realm_user_defaults) is written.
 */
export function setOverride(overrides: Record<string, unknown>, defaults: object, name: string, value: unknown): void {
  if ((defaults as Record<string, unknown>)[name] === value) delete overrides[name];
  else overrides[name] = value;
}
