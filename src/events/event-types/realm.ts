// realm events: one organization setting changed (`update`), or several at once (`update_dict`).
// The `realm` snapshot group: the organization's settings and the server's, as of feature level
// 186 (the reference's names, with the spec's renames).
import { realmBotDomain, realmUrl, realmSettings } from '../../lib/realm.ts';
import { LIMITS } from '../../lib/limits.ts';
import { realmIconUrl } from '../../lib/avatar.ts';
import { PERMISSION_SETTINGS } from '../../lib/permissions.ts';
import { GIF_RATING_OPTIONS, REALM_SETTINGS, realmSetting, VIDEO_CHAT_PROVIDERS } from '../../lib/settings-registry.ts';
import { defineEventType, type ClientOptions, type SnapshotGroup, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';
import { recomputeOwnPermissions } from '../apply/own-permissions.ts';

/** `update_dict`'s property is `default` for settings, `icon` for the organization icon. */
export type RealmEvent =
  | { type: 'realm'; op: 'update'; property: string; value: unknown }
  | { type: 'realm'; op: 'update_dict'; property: string; data: Record<string, unknown> };

const PERMISSION_INPUTS: ReadonlySet<string> = new Set(PERMISSION_SETTINGS);

/**
 * Sets the setting's snapshot field: its key as declared in the settings registry, or
 * `realm_<name>` for what is not a setting (the icon's `icon_url` and `icon_source`).
 */
function set(state: State, name: string, value: unknown): void {
  const key = realmSetting(name)?.snapshot ?? `realm_${name}`;
  if (key && key in state) state[key] = structuredClone(value);
}

function apply(state: State, event: BaseEvent, client: ClientOptions): void {
  let names: string[] = [];
  if (event.op === 'update' && typeof event.property === 'string') {
    set(state, event.property, event.value);
    names = [event.property];
  } else if (event.op === 'update_dict' && event.data && typeof event.data === 'object') {
    for (const [name, value] of Object.entries(event.data as Record<string, unknown>)) set(state, name, value);
    names = Object.keys(event.data);
  }
  if (names.some((n) => PERMISSION_INPUTS.has(n))) recomputeOwnPermissions(state, client.userId);
}

export const realmGroup: SnapshotGroup = async ({ app, realm }) => {
  // Every declared setting under its snapshot key (the name and description from their columns).
  const values: Record<string, unknown> = { ...realmSettings(realm), name: realm.name, description: realm.description };
  const url = realmUrl(app.config, realm);
  const out: Record<string, unknown> = {};
  for (const [name, decl] of Object.entries(REALM_SETTINGS)) if (decl.snapshot) out[decl.snapshot] = values[name];
  return {
    ...out,
    realm_date_created: realm.date_created,
    realm_authentication_methods: { Email: true, Dev: false, LDAP: false, GitHub: false, Google: false, SAML: false },
    realm_icon_url: realmIconUrl(realm, url),
    realm_icon_source: realm.icon_source,
    realm_logo_url: `${url}/static/images/logo/parley-logo.svg`,
    realm_logo_source: 'D',
    realm_night_logo_url: `${url}/static/images/logo/parley-logo.svg`,
    realm_night_logo_source: 'D',
    max_icon_file_size_mib: LIMITS.maxIconFileSizeMib,
    max_logo_file_size_mib: LIMITS.maxLogoFileSizeMib,
    max_avatar_file_size_mib: LIMITS.maxAvatarFileSizeMib,
    max_file_upload_size_mib: app.config.maxFileUploadSizeMib,
    realm_bot_domain: realmBotDomain(app, realm),
    realm_uri: url,
    realm_url: url,
    realm_available_video_chat_providers: VIDEO_CHAT_PROVIDERS,
    settings_send_digest_emails: false,
    realm_is_mirror_realm: false,
    realm_email_auth_enabled: true,
    realm_password_auth_enabled: true,
    realm_push_notifications_enabled: false,
    realm_upload_quota_mib: null,
    service_plan_is_not_limited: true,
    upgrade_text_for_wide_organization_logo: '',
    realm_default_external_accounts: {
      github: { name: 'GitHub', text: 'GitHub', hint: 'Enter your GitHub username', url_pattern: 'https://github.com/%(username)s' },
      twitter: { name: 'Twitter', text: 'Twitter', hint: 'Enter your Twitter username', url_pattern: 'https://twitter.com/%(username)s' },
    },
    video_chat_server_url: 'https://meet.jit.si',
    development_environment: false,
    server_generation: app.startedAt,
    password_min_length: LIMITS.passwordMinLength,
    password_min_guesses: LIMITS.passwordMinGuesses,
    gif_rating_options: GIF_RATING_OPTIONS,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: true,
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_needs_upgrade: false,
    server_web_public_streams_enabled: true,
    server_emoji_data_url: `${url}/static/generated/emoji/emoji_api.json`,
    event_queue_longpoll_timeout_seconds: LIMITS.eventQueueLongpollTimeoutSeconds,
    max_stream_name_length: LIMITS.maxStreamNameLength,
    max_stream_description_length: LIMITS.maxStreamDescriptionLength,
    max_topic_length: LIMITS.maxTopicLength,
    max_message_length: LIMITS.maxMessageLength,
  };
};

export const realmEventType = defineEventType<RealmEvent>({ type: 'realm', snapshot: { realm: realmGroup }, apply });

