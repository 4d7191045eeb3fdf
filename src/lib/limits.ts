// Server limits and the defaults of realm and user settings, in one place. A realm stores only
// the settings that differ from these defaults (realms.settings, users.settings).

export const SERVICE_VERSION = '0.1.0';
export const SERVICE_MERGE_BASE = '';
/** The API feature level whose behaviour Parley implements (the spec's table ends at 186). */
export const SERVICE_FEATURE_LEVEL = 186;

export const LIMITS = {
  maxMessageLength: 10000,
  /** A submessage's content (JSON text), and its type's name. */
  maxSubmessageLength: 10000,
  maxSubmessageTypeLength: 100,
  maxTopicLength: 60,
  maxStreamNameLength: 60,
  maxStreamDescriptionLength: 1024,
  maxFullNameLength: 100,
  minFullNameLength: 1,
  maxEmailLength: 254,
  maxMessagesPerFetch: 5000,
  maxUserGroupNameLength: 100,
  passwordMinLength: 6,
  passwordMinGuesses: 10000,
  maxIconFileSizeMib: 5,
  maxLogoFileSizeMib: 5,
  maxAvatarFileSizeMib: 5,
  maxEmojiFileSizeMib: 5,
  eventQueueLongpollTimeoutSeconds: 90,
  /** Messages deleted per transaction by delete_topic, and its time budget per request. */
  deleteTopicBatchSize: 1000,
  deleteTopicBudgetSeconds: 50,
  /** Messages changed per POST /messages/flags/narrow request. */
  maxFlagsNarrowMessages: 5000,
  /** How often a server process looks for due scheduled messages. */
  scheduledDeliveryPollMs: 1000,
  /** How long a process's claim on a scheduled message lasts if it dies while sending. */
  scheduledDeliveryClaimSeconds: 60,
  /** A browser session ends this long after its last use (and its cookies after login or renewal). */
  sessionLifetimeSeconds: 14 * 24 * 3600,
  /** A session's last use is written at most this often (not on every request). */
  sessionTouchSeconds: 60,
  /** The image proxy: time for the whole fetch, and the largest image passed on. */
  imageProxyTimeoutMs: 10_000,
  imageProxyMaxBytes: 10 * 1024 * 1024,
  /** Image proxy fetches at once per process (each may hold imageProxyMaxBytes); others wait. */
  imageProxyConcurrency: 8,
  /** Link previews: time for each page (redirects and body included), and the most read of it. */
  linkPreviewTimeoutMs: 10_000,
  linkPreviewMaxBytes: 1024 * 1024,
  /** Links previewed per message, and previews fetched at once by one process. */
  linkPreviewMaxLinks: 5,
  linkPreviewConcurrency: 4,
  /** Previews kept per process, and for how long, so a link posted again is not fetched again. */
  linkPreviewCacheEntries: 1000,
  linkPreviewCacheSeconds: 3600,
} as const;

export const ROLE = {
  OWNER: 100,
  ADMINISTRATOR: 200,
  MODERATOR: 300,
  MEMBER: 400,
  GUEST: 600,
} as const;
export const ROLES: readonly number[] = Object.values(ROLE);

/** Stream post policy (and similar "who may" settings). */
export const STREAM_POST_POLICY = { EVERYONE: 1, ADMINS: 2, FULL_MEMBERS: 3, MODERATORS: 4 } as const;

/** Policies of the realm's "who may do X" settings, as the reference numbers them. */
export const COMMON_POLICY = { MEMBERS: 1, ADMINS: 2, FULL_MEMBERS: 3, MODERATORS: 4, EVERYONE: 5, NOBODY: 6 } as const;

/** Realm settings with their defaults; `realms.settings` stores the overrides. */
export const REALM_SETTING_DEFAULTS = {
  allow_message_editing: true,
  message_content_edit_limit_seconds: 600 as number | null,
  edit_topic_policy: COMMON_POLICY.EVERYONE as number,
  move_messages_between_streams_policy: COMMON_POLICY.MEMBERS as number,
  move_messages_within_stream_limit_seconds: 604800 as number | null,
  move_messages_between_streams_limit_seconds: 604800 as number | null,
  allow_edit_history: true,
  message_retention_days: -1,
  email_address_visibility: 1,
  invite_required: true,
  emails_restricted_to_domains: false,
  waiting_period_threshold: 0,
  create_public_stream_policy: COMMON_POLICY.MEMBERS as number,
  create_private_stream_policy: COMMON_POLICY.MEMBERS as number,
  create_web_public_stream_policy: COMMON_POLICY.ADMINS as number,
  invite_to_stream_policy: COMMON_POLICY.MEMBERS as number,
  delete_own_message_policy: COMMON_POLICY.ADMINS as number,
  message_content_delete_limit_seconds: null as number | null,
  enable_spectator_access: false,
  notifications_stream_id: -1,
  signup_notifications_stream_id: -1,
  org_type: 0,
  plan_type: 1,
  mandatory_topics: false,
  default_language: 'en',
  bot_creation_policy: 1,
  presence_disabled: false,
  send_welcome_emails: true,
  digest_emails_enabled: false,
  enable_read_receipts: true,
  video_chat_provider: 1,
  inline_image_preview: true,
  inline_url_embed_preview: false,
  default_code_block_language: '',
  name_changes_disabled: false,
  email_changes_disabled: false,
  avatar_changes_disabled: false,
  want_advertise_in_communities_directory: false,
  user_group_edit_policy: COMMON_POLICY.MEMBERS as number,
  add_custom_emoji_policy: COMMON_POLICY.MEMBERS as number,
  wildcard_mention_policy: COMMON_POLICY.EVERYONE as number,
  disallow_disposable_email_addresses: true,
  invite_to_realm_policy: COMMON_POLICY.MEMBERS as number,
  private_message_policy: 1,
  message_content_allowed_in_email_notifications: true,
  digest_weekday: 1,
  giphy_rating: 2,
  video_chat_server_url: null as string | null,
  enable_guest_user_indicator: true,
};
export type RealmSettings = typeof REALM_SETTING_DEFAULTS;

/** User settings with the server's defaults (a realm may override them for new users). */
export const USER_SETTING_DEFAULTS = {
  twenty_four_hour_time: false,
  dense_mode: true,
  web_mark_read_on_scroll_policy: 1,
  starred_message_counts: true,
  fluid_layout_width: false,
  high_contrast_mode: false,
  color_scheme: 1,
  translate_emoticons: false,
  display_emoji_reaction_users: true,
  default_language: 'en',
  default_view: 'recent_topics',
  escape_navigates_to_default_view: true,
  left_side_userlist: false,
  emojiset: 'google',
  demote_inactive_streams: 1,
  user_list_style: 2,
  timezone: '',
  enter_sends: false,
  enable_drafts_synchronization: true,
  enable_stream_desktop_notifications: false,
  enable_stream_email_notifications: false,
  enable_stream_push_notifications: false,
  enable_stream_audible_notifications: false,
  notification_sound: 'zulip',
  enable_desktop_notifications: true,
  enable_sounds: true,
  enable_offline_email_notifications: true,
  message_content_in_email_notifications: true,
  enable_offline_push_notifications: true,
  enable_online_push_notifications: true,
  enable_digest_emails: true,
  enable_marketing_emails: true,
  enable_login_emails: true,
  presence_enabled: true,
  pm_content_in_desktop_notifications: true,
  wildcard_mentions_notify: true,
  desktop_icon_count_display: 1,
  realm_name_in_email_notifications_policy: 1,
  automatically_follow_topics_policy: 3,
  automatically_unmute_topics_in_muted_streams_policy: 3,
  automatically_follow_topics_where_mentioned: true,
  send_private_typing_notifications: true,
  send_stream_typing_notifications: true,
  send_read_receipts: true,
  email_address_visibility: 1,
  email_notifications_batching_period_seconds: 120,
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_email_notifications: true,
  enable_followed_topic_push_notifications: true,
  enable_followed_topic_audible_notifications: true,
  enable_followed_topic_wildcard_mentions_notify: true,
};
export type UserSettings = typeof USER_SETTING_DEFAULTS;

export function parseSettings<T extends object>(defaults: T, stored: string): T {
  let overrides: unknown = {};
  try {
    overrides = JSON.parse(stored);
  } catch {
    overrides = {};
  }
  const out = { ...defaults } as Record<string, unknown>;
  if (typeof overrides === 'object' && overrides !== null) {
    for (const [k, v] of Object.entries(overrides)) if (k in out) out[k] = v;
  }
  return out as T;
}

/** The largest row ID (PostgreSQL `integer`): larger IDs in requests cannot name anything. */
export const MAX_DB_ID = 2147483647;
/** Organization administration: names, descriptions, custom emoji, linkifiers and bots. */
export const ADMIN_LIMITS = {
  maxRealmNameLength: 40,
  maxRealmDescriptionLength: 1000,
  maxEmojiNameLength: 60,
  maxLinkifierPatternLength: 1000,
  maxLinkifierTemplateLength: 1024,
  /** Largest {n,m} repeat count a linkifier pattern may use (bounded work per match). */
  maxLinkifierRepeat: 1000,
  /** A new pattern is timed on runs of this many characters... */
  linkifierProbeLength: 1500,
  /** ...and refused if those take longer than this (quadratic patterns take a few ms). */
  linkifierProbeMillis: 2000,
  maxDefaultStreamGroupNameLength: 60,
  maxBotShortNameLength: 40,
} as const;

/** Bot types of the reference: generic, incoming webhook, outgoing webhook, embedded. */
export const BOT_TYPE = { GENERIC: 1, INCOMING_WEBHOOK: 2, OUTGOING_WEBHOOK: 3, EMBEDDED: 4 } as const;
