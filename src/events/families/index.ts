// Event families by event type. A family not listed here passes its events through unchanged.
import type { EventFamily } from '../family.ts';
import { deleteMessageFamily, linkifiersFamily, userSettingsFamily } from './legacy.ts';
import { messageFamily } from './message.ts';
import { defaultStreamsFamily, realmFamily } from './realm.ts';
import { realmUserFamily } from './realm_user.ts';
import { streamFamily } from './stream.ts';
import { subscriptionFamily } from './subscription.ts';
import { userGroupFamily } from './user_group.ts';

const families: Record<string, EventFamily> = {
  message: messageFamily,
  subscription: subscriptionFamily,
  stream: streamFamily,
  realm_user: realmUserFamily,
  user_settings: userSettingsFamily,
  delete_message: deleteMessageFamily,
  realm_linkifiers: linkifiersFamily,
  user_group: userGroupFamily,
  realm: realmFamily,
  default_streams: defaultStreamsFamily,
};

/** The family of an event type, if it has one. */
export function familyOf(type: string): EventFamily | undefined {
  return Object.hasOwn(families, type) ? families[type] : undefined;
}
