// The register snapshot groups, by the event type that names them in `fetch_event_types`.
// Adding a group is one line here.
import { defaultStreamsGroup } from './default_streams.ts';
import { messageSnapshot, starredMessagesSnapshot, stopWordsSnapshot, unreadSnapshot } from './messages.ts';
import { realmGroup } from './realm.ts';
import { realmUserGroup } from './realm_user.ts';
import { recentPrivateConversationsGroup } from './recent_private_conversations.ts';
import { userSettingsGroup } from './settings.ts';
import { streamGroup, subscriptionGroup } from './subscription.ts';
import type { SnapshotGroup } from './types.ts';
import { draftsSnapshot } from './drafts.ts';
import { mutedUsersSnapshot } from './muted_users.ts';
import { scheduledMessagesSnapshot } from './scheduled_messages.ts';
import { defaultStreamGroupsGroup } from './default_stream_groups.ts';
import { realmBotGroup } from './realm_bot.ts';
import { realmEmojiGroup } from './realm_emoji.ts';
import { realmFiltersGroup, realmLinkifiersGroup } from './realm_linkifiers.ts';
import { realmUserSettingsDefaultsGroup } from './realm_user_settings_defaults.ts';
import { alertWordsSnapshot } from './alert_words.ts';
import { customProfileFieldsSnapshot } from './custom_profile_fields.ts';
import { presenceSnapshot } from './presence.ts';
import { userGroupsSnapshot } from './user_groups.ts';
import { userStatusSnapshot } from './user_status.ts';
import { mutedTopicsSnapshot } from './muted_topics.ts';
import { userTopicSnapshot } from './user_topic.ts';
import { updateDisplaySettingsGroup, updateGlobalNotificationsGroup } from './legacy_settings.ts';
import { absentFeatureGroups } from './absent_features.ts';
import { realmDomainsGroup } from './realm_domains.ts';

export const snapshotGroups: Record<string, SnapshotGroup> = {
  realm: realmGroup,
  realm_user: realmUserGroup,
  subscription: subscriptionGroup,
  stream: streamGroup,
  message: messageSnapshot,
  update_message_flags: unreadSnapshot,
  starred_messages: starredMessagesSnapshot,
  recent_private_conversations: recentPrivateConversationsGroup,
  default_streams: defaultStreamsGroup,
  stop_words: stopWordsSnapshot,
  user_settings: userSettingsGroup,
  update_display_settings: updateDisplaySettingsGroup,
  update_global_notifications: updateGlobalNotificationsGroup,
  realm_user_settings_defaults: realmUserSettingsDefaultsGroup,
  user_topic: userTopicSnapshot,
  muted_topics: mutedTopicsSnapshot,
  alert_words: alertWordsSnapshot,
  custom_profile_fields: customProfileFieldsSnapshot,
  presence: presenceSnapshot,
  realm_user_groups: userGroupsSnapshot,
  user_status: userStatusSnapshot,
  realm_emoji: realmEmojiGroup,
  realm_linkifiers: realmLinkifiersGroup,
  realm_filters: realmFiltersGroup,
  default_stream_groups: defaultStreamGroupsGroup,
  realm_bot: realmBotGroup,
  drafts: draftsSnapshot,
  scheduled_messages: scheduledMessagesSnapshot,
  muted_users: mutedUsersSnapshot,
  ...absentFeatureGroups,
  realm_domains: realmDomainsGroup,
};
