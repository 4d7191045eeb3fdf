// Every event type, one module each under event-types/. What actions may send (`ParleyEvent`),
// what the queues do with each event and which register snapshot groups exist all follow from
// this list: a new event type is one module and one line here.
import { absentFeatureGroups } from './absent-features.ts';
import type { EventType, SnapshotGroup } from './event-type.ts';
import { alertWordsEventType } from './event-types/alert_words.ts';
import { attachmentEventType } from './event-types/attachment.ts';
import { customProfileFieldsEventType } from './event-types/custom_profile_fields.ts';
import { defaultStreamGroupsEventType } from './event-types/default_stream_groups.ts';
import { defaultStreamsEventType } from './event-types/default_streams.ts';
import { deleteMessageEventType } from './event-types/delete_message.ts';
import { draftsEventType } from './event-types/drafts.ts';
import { invitesChangedEventType } from './event-types/invites_changed.ts';
import { messageEventType } from './event-types/message.ts';
import { mutedTopicsEventType } from './event-types/muted_topics.ts';
import { mutedUsersEventType } from './event-types/muted_users.ts';
import { presenceEventType } from './event-types/presence.ts';
import { reactionEventType } from './event-types/reaction.ts';
import { realmEventType } from './event-types/realm.ts';
import { realmBotEventType } from './event-types/realm_bot.ts';
import { realmDomainsEventType } from './event-types/realm_domains.ts';
import { realmEmojiEventType } from './event-types/realm_emoji.ts';
import { realmLinkifiersEventType } from './event-types/realm_linkifiers.ts';
import { realmUserEventType } from './event-types/realm_user.ts';
import { realmUserSettingsDefaultsEventType } from './event-types/realm_user_settings_defaults.ts';
import { scheduledMessagesEventType } from './event-types/scheduled_messages.ts';
import { streamEventType } from './event-types/stream.ts';
import { submessageEventType } from './event-types/submessage.ts';
import { subscriptionEventType } from './event-types/subscription.ts';
import { typingEventType } from './event-types/typing.ts';
import { updateDisplaySettingsEventType } from './event-types/update_display_settings.ts';
import { updateGlobalNotificationsEventType } from './event-types/update_global_notifications.ts';
import { updateMessageEventType } from './event-types/update_message.ts';
import { updateMessageFlagsEventType } from './event-types/update_message_flags.ts';
import { userGroupEventType } from './event-types/user_group.ts';
import { userSettingsEventType } from './event-types/user_settings.ts';
import { userStatusEventType } from './event-types/user_status.ts';
import { userTopicEventType } from './event-types/user_topic.ts';

/** The event types; register fetches their snapshot groups in this order. */
export const EVENT_TYPES = [
  realmEventType,
  realmUserEventType,
  subscriptionEventType,
  streamEventType,
  messageEventType,
  updateMessageFlagsEventType,
  defaultStreamsEventType,
  userSettingsEventType,
  updateDisplaySettingsEventType,
  updateGlobalNotificationsEventType,
  realmUserSettingsDefaultsEventType,
  userTopicEventType,
  mutedTopicsEventType,
  alertWordsEventType,
  customProfileFieldsEventType,
  presenceEventType,
  userGroupEventType,
  userStatusEventType,
  realmEmojiEventType,
  realmLinkifiersEventType,
  defaultStreamGroupsEventType,
  realmBotEventType,
  draftsEventType,
  scheduledMessagesEventType,
  mutedUsersEventType,
  realmDomainsEventType,
  updateMessageEventType,
  deleteMessageEventType,
  reactionEventType,
  submessageEventType,
  typingEventType,
  attachmentEventType,
  invitesChangedEventType,
] as const;

type PayloadOf<T> = T extends { readonly payload?: infer E } ? Exclude<E, undefined> : never;

/** An event an action may send: the payload of one of the event types. */
export type ParleyEvent = PayloadOf<(typeof EVENT_TYPES)[number]>;

/** The name of an event type. */
export type EventTypeName = ParleyEvent['type'];

const byName = new Map<string, EventType>(EVENT_TYPES.map((t) => [t.type, t as unknown as EventType]));

/** The module of an event type (undefined for `heartbeat`, which the queues make themselves). */
export function eventTypeOf(type: string): EventType | undefined {
  return byName.get(type);
}

function listGroups(): Record<string, SnapshotGroup> {
  const groups: Record<string, SnapshotGroup> = {};
  const all = [...EVENT_TYPES.flatMap((t) => [...Object.entries(t.snapshot ?? {}), ...Object.entries(t.fixedSnapshot ?? {})]), ...Object.entries(absentFeatureGroups)];
  for (const [name, group] of all) {
    if (Object.hasOwn(groups, name)) throw new Error(`two snapshot groups named ${name}`);
    groups[name] = group;
  }
  return groups;
}

/** The register snapshot groups, by their `fetch_event_types` name. */
export const snapshotGroups: Readonly<Record<string, SnapshotGroup>> = listGroups();
