// What each `fetch_event_types` name of POST /register returns, at our feature level (186), as
// the reference's /register description states it ("Present if `x` is present in
// `fetch_event_types`"). `deriveRegisterTable` re-derives it from the reference's OpenAPI so that
// a test can hold this table to it.
import { RENAMES } from './openapi.ts';

export const OUR_FEATURE_LEVEL = 186;

/** Names (joined with '+' when the reference needs several) to the keys they return. */
export const REGISTER_TABLE: Record<string, string[]> = {
  alert_words: ['alert_words'],
  custom_profile_fields: ['custom_profile_field_types', 'custom_profile_fields'],
  default_stream_groups: ['realm_default_stream_groups'],
  default_streams: ['realm_default_streams'],
  giphy: ['giphy_api_key'],
  hotspots: ['hotspots'],
  message: ['max_message_id'],
  'message+update_message_flags': ['unread_msgs'],
  muted_topics: ['muted_topics'],
  muted_users: ['muted_users'],
  presence: ['presences', 'server_timestamp'],
  realm: [
    'development_environment', 'event_queue_longpoll_timeout_seconds', 'gif_rating_options', 'max_avatar_file_size_mib',
    'max_file_upload_size_mib', 'max_icon_file_size_mib', 'max_logo_file_size_mib', 'max_message_length',
    'max_stream_description_length', 'max_stream_name_length', 'max_topic_length', 'password_min_guesses',
    'password_min_length', 'realm_allow_edit_history', 'realm_allow_message_editing', 'realm_authentication_methods',
    'realm_available_video_chat_providers', 'realm_avatar_changes_disabled', 'realm_bot_domain',
    'realm_create_private_stream_policy', 'realm_create_public_stream_policy', 'realm_create_web_public_stream_policy',
    'realm_default_code_block_language', 'realm_default_external_accounts', 'realm_default_language', 'realm_description',
    'realm_digest_emails_enabled', 'realm_digest_weekday', 'realm_disallow_disposable_email_addresses',
    'realm_email_auth_enabled', 'realm_email_changes_disabled', 'realm_emails_restricted_to_domains',
    'realm_enable_read_receipts', 'realm_enable_spectator_access', 'realm_giphy_rating', 'realm_icon_source', 'realm_icon_url',
    'realm_inline_image_preview', 'realm_inline_url_embed_preview', 'realm_invite_required', 'realm_is_mirror_realm',
    'realm_logo_source', 'realm_logo_url', 'realm_mandatory_topics', 'realm_message_content_allowed_in_email_notifications',
    'realm_message_content_delete_limit_seconds', 'realm_message_content_edit_limit_seconds', 'realm_message_retention_days',
    'realm_move_messages_between_streams_limit_seconds', 'realm_move_messages_within_stream_limit_seconds', 'realm_name',
    'realm_name_changes_disabled', 'realm_night_logo_source', 'realm_night_logo_url', 'realm_notifications_stream_id',
    'realm_org_type', 'realm_password_auth_enabled', 'realm_plan_type', 'realm_presence_disabled',
    'realm_push_notifications_enabled', 'realm_send_welcome_emails', 'realm_signup_notifications_stream_id',
    'realm_upload_quota_mib', 'realm_uri', 'realm_waiting_period_threshold', 'realm_want_advertise_in_communities_directory',
    'realm_wildcard_mention_policy', 'server_avatar_changes_disabled', 'server_emoji_data_url', 'server_generation',
    'server_inline_image_preview', 'server_inline_url_embed_preview', 'server_name_changes_disabled', 'server_needs_upgrade',
    'server_web_public_streams_enabled', 'service_plan_is_not_limited', 'settings_send_digest_emails',
    'upgrade_text_for_wide_organization_logo', 'video_chat_server_url',
  ],
  realm_bot: ['realm_bots'],
  realm_domains: ['realm_domains'],
  realm_embedded_bots: ['realm_embedded_bots'],
  realm_emoji: ['realm_emoji'],
  realm_filters: ['realm_filters'],
  realm_incoming_webhook_bots: ['realm_incoming_webhook_bots'],
  realm_linkifiers: ['realm_linkifiers'],
  realm_playgrounds: ['realm_playgrounds'],
  realm_user: [
    'avatar_source', 'avatar_url', 'avatar_url_medium', 'can_create_private_streams', 'can_create_public_streams',
    'can_create_streams', 'can_create_web_public_streams', 'can_invite_others_to_realm', 'can_subscribe_other_users',
    'cross_realm_bots', 'delivery_email', 'email', 'full_name', 'is_admin', 'is_guest', 'is_moderator', 'is_owner',
    'realm_non_active_users', 'realm_users', 'user_id',
  ],
  realm_user_groups: ['realm_user_groups'],
  realm_user_settings_defaults: ['realm_user_settings_defaults'],
  recent_private_conversations: ['recent_private_conversations'],
  scheduled_messages: ['scheduled_messages'],
  starred_messages: ['starred_messages'],
  stop_words: ['stop_words'],
  stream: ['streams'],
  subscription: ['never_subscribed', 'subscriptions', 'unsubscribed'],
  update_display_settings: [
    'color_scheme', 'default_language', 'default_view', 'demote_inactive_streams', 'emojiset', 'emojiset_choices',
    'enable_drafts_synchronization', 'enter_sends', 'fluid_layout_width', 'high_contrast_mode', 'left_side_userlist',
    'starred_message_counts', 'timezone', 'translate_emoticons', 'twenty_four_hour_time',
  ],
  update_global_notifications: [
    'available_notification_sounds', 'desktop_icon_count_display', 'email_notifications_batching_period_seconds',
    'enable_desktop_notifications', 'enable_digest_emails', 'enable_login_emails', 'enable_marketing_emails',
    'enable_offline_email_notifications', 'enable_offline_push_notifications', 'enable_online_push_notifications',
    'enable_sounds', 'enable_stream_audible_notifications', 'enable_stream_desktop_notifications',
    'enable_stream_email_notifications', 'enable_stream_push_notifications', 'message_content_in_email_notifications',
    'notification_sound', 'pm_content_in_desktop_notifications', 'presence_enabled', 'realm_name_in_email_notifications_policy',
    'wildcard_mentions_notify',
  ],
  user_settings: ['user_settings'],
  user_status: ['user_status'],
  user_topic: ['user_topics'],
  video_calls: ['has_zoom_token'],
};

/**
 * Keys and names the reference renamed after our feature level: the reference's name to ours.
 * Each must say so in its description (checked when deriving).
 */
export const RENAMED_AFTER_OUR_LEVEL: Record<string, string> = {
  web_home_view: 'default_view',
  realm_new_stream_announcements_stream_id: 'realm_notifications_stream_id',
  realm_signup_announcements_stream_id: 'realm_signup_notifications_stream_id',
  onboarding_steps: 'hotspots',
};

type Json = Record<string, unknown>;

const PRESENT_IF = /Present if ((?:`\w+`(?:,? and |, )?)+) (?:is|are both) present in\s+`(?:fetch_)?event_types`/;

/** The table from the reference document (already parsed YAML). */
export function deriveRegisterTable(doc: Json): Record<string, string[]> {
  const post = ((doc.paths as Json)['/register'] as Json).post as Json;
  const schema = ((((post.responses as Json)['200'] as Json).content as Json)['application/json'] as Json).schema as Json;
  const props: Json = {};
  for (const part of [schema, ...((schema.allOf as Json[] | undefined) ?? [])]) Object.assign(props, part.properties ?? {});
  const specRenames = new Map(RENAMES);
  const table: Record<string, string[]> = {};
  for (const [key, prop] of Object.entries(props)) {
    const description = String((prop as Json).description ?? '');
    const m = PRESENT_IF.exec(description);
    if (!m) continue;
    const names = [...m[1]!.matchAll(/`(\w+)`/g)].map((x) => renamed(x[1]!, String(((props[x[1]!] as Json | undefined)?.description) ?? description)));
    const newIn = /New in Zulip [\d.]+ \(feature level (\d+)\)/.exec(description);
    let ours = key;
    if (key in RENAMED_AFTER_OUR_LEVEL) ours = renamed(key, description);
    else if (newIn && Number(newIn[1]) > OUR_FEATURE_LEVEL) continue;
    ours = specRenames.get(ours) ?? ours;
    (table[names.join('+')] ??= []).push(ours);
  }
  for (const keys of Object.values(table)) keys.sort();
  return Object.fromEntries(Object.entries(table).sort(([a], [b]) => a.localeCompare(b)));
}

function renamed(name: string, description: string): string {
  const old = RENAMED_AFTER_OUR_LEVEL[name];
  if (old === undefined) return name;
  // The description must name the old name and a feature level past ours.
  const levels = [...description.matchAll(/feature level (\d+)/g)].map((x) => Number(x[1]));
  if (!description.includes(old) || !levels.some((l) => l > OUR_FEATURE_LEVEL)) throw new Error(`${name}: the reference does not say it was ${old} at our level`);
  return old;
}
