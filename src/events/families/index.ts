// Event families by event type. A family not listed here passes its events through unchanged.
import type { EventFamily } from '../family.ts';
import { messageFamily } from './message.ts';
import { realmUserFamily } from './realm_user.ts';
import { streamFamily } from './stream.ts';
import { subscriptionFamily } from './subscription.ts';
import { userGroupFamily } from './user_group.ts';
import { alertWordsFamily } from './alert_words.ts';
import { customProfileFieldsFamily } from './custom_profile_fields.ts';
import { defaultStreamGroupsFamily } from './default_stream_groups.ts';
import { defaultStreamsFamily } from './default_streams.ts';
import { deleteMessageFamily } from './delete_message.ts';
import { mutedTopicsFamily } from './muted_topics.ts';
import { presenceFamily } from './presence.ts';
import { realmFamily } from './realm.ts';
import { realmBotFamily } from './realm_bot.ts';
import { realmDomainsFamily } from './realm_domains.ts';
import { realmEmojiFamily } from './realm_emoji.ts';
import { realmLinkifiersFamily } from './realm_linkifiers.ts';
import { realmUserSettingsDefaultsFamily } from './realm_user_settings_defaults.ts';
import { updateMessageFamily } from './update_message.ts';
import { updateMessageFlagsFamily } from './update_message_flags.ts';
import { updateDisplaySettingsFamily, updateGlobalNotificationsFamily, userSettingsFamily } from './user_settings.ts';
import { userStatusFamily } from './user_status.ts';
import { userTopicFamily } from './user_topic.ts';

const families: Record<string, EventFamily> = {
  message: messageFamily,
  subscription: subscriptionFamily,
  stream: streamFamily,
  realm_user: realmUserFamily,
  user_settings: userSettingsFamily,
  delete_message: deleteMessageFamily,
  realm_linkifiers: realmLinkifiersFamily,
  realm_domains: realmDomainsFamily,
  user_group: userGroupFamily,
  update_display_settings: updateDisplaySettingsFamily,
  update_global_notifications: updateGlobalNotificationsFamily,
  alert_words: alertWordsFamily,
  custom_profile_fields: customProfileFieldsFamily,
  default_streams: defaultStreamsFamily,
  default_stream_groups: defaultStreamGroupsFamily,
  muted_topics: mutedTopicsFamily,
  presence: presenceFamily,
  realm: realmFamily,
  realm_bot: realmBotFamily,
  realm_emoji: realmEmojiFamily,
  realm_user_settings_defaults: realmUserSettingsDefaultsFamily,
  update_message: updateMessageFamily,
  update_message_flags: updateMessageFlagsFamily,
  user_status: userStatusFamily,
  user_topic: userTopicFamily,
};

/** The family of an event type, if it has one. */
export function familyOf(type: string): EventFamily | undefined {
  return Object.hasOwn(families, type) ? families[type] : undefined;
}
