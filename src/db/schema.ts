// Row types of every table, as kysely sees them. Booleans are stored as 0/1 integers in both
// dialects so that queries and rows look the same on SQLite and PostgreSQL; times are UTC seconds.
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

export type Flag = number; // 0 or 1

export interface RealmsTable {
  id: Generated<number>;
  name: string;
  subdomain: string; // '' for the realm on the bare host
  description: string;
  date_created: number;
  deactivated: Flag;
  /** JSON object of the realm settings that differ from the defaults in lib/limits. */
  settings: string;
  icon_source: Generated<string>; // 'G' default, 'U' uploaded
  icon_version: Generated<number>;
}

export interface UsersTable {
  id: Generated<number>;
  realm_id: number;
  email: string; // API email, lower case
  delivery_email: string; // real email, lower case
  full_name: string;
  role: number; // 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest
  is_active: Flag;
  is_bot: Flag;
  bot_type: number | null;
  bot_owner_id: number | null;
  is_billing_admin: Flag;
  /** May create users through the API (administrators only; the first owner has it). */
  can_create_users: Flag;
  api_key: string;
  password_hash: string | null;
  date_joined: number;
  timezone: string;
  avatar_source: string; // 'G' external service, 'U' uploaded
  avatar_version: number;
  /** JSON object of the user settings that differ from the realm's defaults. */
  settings: string;
}

export interface RecipientsTable {
  id: Generated<number>;
  realm_id: number;
  type: number; // 2 stream, 3 direct message group (also 1:1 and self)
  stream_id: number | null;
  /** For direct messages: the sorted participant IDs joined by commas. */
  dm_key: string | null;
}

export interface StreamsTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  description: string;
  rendered_description: string;
  date_created: number;
  deactivated: Flag;
  invite_only: Flag;
  is_web_public: Flag;
  history_public_to_subscribers: Flag;
  stream_post_policy: number;
  message_retention_days: number | null;
  can_remove_subscribers_group_id: number;
  first_message_id: number | null;
  recipient_id: number | null;
  creator_id: number | null;
}

export interface SubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  stream_id: number;
  active: Flag;
  is_muted: Flag;
  pin_to_top: Flag;
  color: string;
  desktop_notifications: Flag | null;
  email_notifications: Flag | null;
  push_notifications: Flag | null;
  audible_notifications: Flag | null;
  wildcard_mentions_notify: Flag | null;
}

export interface MessagesTable {
  id: Generated<number>;
  realm_id: number;
  sender_id: number;
  recipient_id: number;
  stream_id: number | null; // null for direct messages
  topic: string; // '' for direct messages
  content: string;
  rendered_content: string;
  rendered_content_version: number;
  date_sent: number;
  last_edit_time: number | null;
  /** JSON array of edit history entries, newest first; null if never edited. */
  edit_history: string | null;
  client: string;
  is_me_message: Flag;
  has_link: Flag;
  has_attachment: Flag;
  has_image: Flag;
}

export interface UserMessagesTable {
  user_id: number;
  message_id: number;
  flags: number; // bit set, see db/flags.ts
}

/** SQLite only: a sent message's user_messages rows until they move (pending-user-messages.ts). */
export interface PendingUserMessagesTable {
  message_id: number;
  /** JSON array: user ID * 65536 + flags, one a recipient. */
  recipients: string;
}

export interface UserGroupsTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  description: string;
  is_system_group: Flag;
  deactivated: Flag;
  /** System groups: the highest (least privileged) role number that belongs. */
  role_limit: number | null;
  date_created: number;
  creator_id: number | null;
  can_mention_group: number | null;
}

export interface UserGroupMembersTable {
  group_id: number;
  user_id: number;
}

export interface UserGroupSubgroupsTable {
  group_id: number;
  subgroup_id: number;
}

export interface DefaultStreamsTable {
  realm_id: number;
  stream_id: number;
}

export interface RealmEmojiTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  file_name: string;
  author_id: number | null;
  deactivated: Flag;
  date_created: number;
}

export interface RealmLinkifiersTable {
  id: Generated<number>;
  realm_id: number;
  pattern: string;
  url_template: string;
  order: number;
}

export interface AttachmentsTable {
  id: Generated<number>;
  realm_id: number;
  owner_id: number;
  /** "<realm id>/<random>/<sanitized file name>", the part of the URL after /user_uploads/. */
  path_id: string;
  file_name: string;
  size: number;
  content_type: string;
  create_time: number;
}

export interface AttachmentMessagesTable {
  attachment_id: number;
  message_id: number;
}

export interface UserTopicsTable {
  id: Generated<number>;
  user_id: number;
  stream_id: number;
  topic_name: string;
  /** 1 muted, 2 unmuted, 3 followed; "inherit" (0) is the absence of a row. */
  visibility_policy: number;
  last_updated: number;
}

export interface CustomProfileFieldsTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  hint: string;
  type: number; // 1 short text ... 8 pronouns
  /** JSON text: choices of a list field, the subtype of an external account; '' otherwise. */
  field_data: string;
  order: number;
  display_in_profile_summary: Flag;
  required: Flag;
  editable_by_user: Flag;
}

export interface CustomProfileFieldValuesTable {
  field_id: number;
  user_id: number;
  value: string;
  rendered_value: string | null;
}

export interface UserStatusTable {
  user_id: number;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  timestamp: number;
}

export interface AlertWordsTable {
  id: Generated<number>;
  user_id: number;
  word: string;
}

export interface PresenceTable {
  user_id: number;
  realm_id: number;
  last_connected_time: number;
  last_active_time: number | null;
}

export interface DefaultStreamGroupsTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  description: string;
}

export interface DefaultStreamGroupStreamsTable {
  group_id: number;
  stream_id: number;
}

export interface BotSettingsTable {
  user_id: number;
  default_sending_stream_id: number | null;
  default_events_register_stream_id: number | null;
  default_all_public_streams: Flag;
  /** Outgoing webhook bots: where messages go, in which format, with which token. */
  service_base_url: string | null;
  service_interface: number | null;
  service_token: string | null;
}

export interface RealmUserDefaultsTable {
  realm_id: number;
  /** JSON object of the new-user settings that differ from USER_SETTING_DEFAULTS. */
  settings: string;
}

export interface ReactionsTable {
  id: Generated<number>;
  message_id: number;
  user_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string; // unicode_emoji, realm_emoji, service_extra_emoji
}

export interface SubmessagesTable {
  id: Generated<number>;
  message_id: number;
  sender_id: number;
  msg_type: string;
  /** JSON text as the client sent it (a widget's first one is written by the server). */
  content: string;
}

export interface DraftsTable {
  id: Generated<number>;
  user_id: number;
  type: string; // '', 'stream' or 'private'
  /** JSON array: the stream ID of a stream draft, the user IDs of a direct message draft. */
  to_ids: string;
  topic: string;
  content: string;
  last_edit_time: number;
}

export interface ScheduledMessagesTable {
  id: Generated<number>;
  realm_id: number;
  sender_id: number;
  type: string; // 'stream' or 'private'
  stream_id: number | null;
  /** JSON array of the recipients' user IDs, for direct messages. */
  to_user_ids: string | null;
  topic: string;
  content: string;
  rendered_content: string;
  scheduled_timestamp: number;
  read_by_sender: Flag | null;
  delivered: Flag;
  delivered_message_id: number | null;
  failed: Flag;
  failure_message: string | null;
  claim_token: string | null;
  claimed_until: number | null;
  date_created: number;
}

export interface MutedUsersTable {
  user_id: number;
  muted_user_id: number;
  date_muted: number;
}

/** Secrets the server generated for itself (the image proxy key), by name. */
export interface ServerSecretsTable {
  name: string;
  value: string;
}

export interface Database {
  realm_emoji: RealmEmojiTable;
  realm_linkifiers: RealmLinkifiersTable;
  attachments: AttachmentsTable;
  attachment_messages: AttachmentMessagesTable;
  default_streams: DefaultStreamsTable;
  realms: RealmsTable;
  users: UsersTable;
  recipients: RecipientsTable;
  streams: StreamsTable;
  subscriptions: SubscriptionsTable;
  messages: MessagesTable;
  user_messages: UserMessagesTable;
  pending_user_messages: PendingUserMessagesTable;
  user_groups: UserGroupsTable;
  user_group_members: UserGroupMembersTable;
  user_group_subgroups: UserGroupSubgroupsTable;
  saved_event_queues: SavedEventQueuesTable;
  sessions: SessionsTable;
  invitations: InvitationsTable;
  realm_domains: RealmDomainsTable;
  password_resets: PasswordResetsTable;
  user_topics: UserTopicsTable;
  custom_profile_fields: CustomProfileFieldsTable;
  custom_profile_field_values: CustomProfileFieldValuesTable;
  user_status: UserStatusTable;
  alert_words: AlertWordsTable;
  presence: PresenceTable;
  default_stream_groups: DefaultStreamGroupsTable;
  default_stream_group_streams: DefaultStreamGroupStreamsTable;
  bot_settings: BotSettingsTable;
  realm_user_defaults: RealmUserDefaultsTable;
  reactions: ReactionsTable;
  submessages: SubmessagesTable;
  drafts: DraftsTable;
  scheduled_messages: ScheduledMessagesTable;
  muted_users: MutedUsersTable;
  server_secrets: ServerSecretsTable;
}

export type Realm = Selectable<RealmsTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Stream = Selectable<StreamsTable>;
export type Subscription = Selectable<SubscriptionsTable>;
export type Message = Selectable<MessagesTable>;
export type Recipient = Selectable<RecipientsTable>;
export type UserGroup = Selectable<UserGroupsTable>;

/** Event queues saved by a graceful shutdown; the next start restores and deletes them. */
export interface SavedEventQueuesTable {
  queue_id: string;
  user_id: number;
  data: string;
  saved_at: number;
}
/** A logged-in browser; the cookie's token is kept only as its SHA-256 (hex). */
export interface SessionsTable {
  token_hash: string;
  user_id: number;
  realm_id: number;
  /** What the page sends back in X-CSRFToken on unsafe methods. */
  csrf_token: string;
  created_at: number;
  last_used_at: number;
  /** last_used_at plus the session lifetime: a session unused that long ends. */
  expires_at: number;
}
export type Session = Selectable<SessionsTable>;

export type InvitationKind = 'invite' | 'multiuse' | 'signup';
export interface InvitationsTable {
  id: Generated<number>;
  realm_id: number;
  key: string;
  kind: InvitationKind;
  /** The invited address; null for a reusable link. */
  email: string | null;
  /** Null for the confirmation link of an open sign-up. */
  invited_by: number | null;
  invited_at: number;
  /** Null: never expires. */
  expires_at: number | null;
  invited_as: number;
  /** JSON list of stream ids the new user joins. */
  stream_ids: string;
  include_default_streams: number;
  notify_referrer: number;
  status: number;
}
export type Invitation = Selectable<InvitationsTable>;

export interface RealmDomainsTable {
  id: Generated<number>;
  realm_id: number;
  domain: string;
  allow_subdomains: number;
}
export type RealmDomain = Selectable<RealmDomainsTable>;

export interface PasswordResetsTable {
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}
export type UserTopic = Selectable<UserTopicsTable>;
export type CustomProfileField = Selectable<CustomProfileFieldsTable>;
export type Draft = Selectable<DraftsTable>;
export type ScheduledMessage = Selectable<ScheduledMessagesTable>;
export type Attachment = Selectable<AttachmentsTable>;
