// The route table: every API operation, by resource (one array per line, so additions merge).
import type { Route } from '../http/route.ts';
import { accountRoutes } from './accounts.ts';
import { avatarRoutes } from './avatars.ts';
import { botRoutes } from './bots.ts';
import { defaultStreamRoutes } from './default-streams.ts';
import { draftRoutes } from './drafts.ts';
import { eventRoutes } from './events.ts';
import { imageProxyRoutes } from './image-proxy.ts';
import { inviteRoutes } from './invites.ts';
import { joinRoutes } from './join.ts';
import { passwordRoutes } from './passwords.ts';
import { linkifierRoutes } from './linkifiers.ts';
import { messageChangeRoutes } from './message-changes.ts';
import { messageFlagRoutes } from './message-flags.ts';
import { messageReadRoutes } from './message-reads.ts';
import { messageRoutes } from './messages.ts';
import { mutedUserRoutes } from './muted-users.ts';
import { presenceRoutes } from './presence.ts';
import { profileFieldRoutes } from './profile-fields.ts';
import { readReceiptRoutes } from './read-receipts.ts';
import { realmDomainRoutes } from './realm-domains.ts';
import { realmEmojiRoutes } from './realm-emoji.ts';
import { realmRoutes } from './realm.ts';
import { scheduledMessageRoutes } from './scheduled-messages.ts';
import { serverRoutes } from './server.ts';
import { serviceEmojiRoutes } from './service-emoji.ts';
import { settingsRoutes } from './settings.ts';
import { streamAdminRoutes } from './stream-admin.ts';
import { streamRoutes } from './streams.ts';
import { subscriptionSettingRoutes } from './subscription-settings.ts';
import { subscriptionRoutes } from './subscriptions.ts';
import { submessageRoutes } from './submessages.ts';
import { uploadApiRoutes, uploadFileRoutes } from './uploads.ts';
import { userGroupRoutes } from './user-groups.ts';
import { userTopicRoutes } from './user-topics.ts';
import { userRoutes } from './users.ts';

export const routes: Route[] = [
  ...serverRoutes,
  ...userRoutes,
  ...streamRoutes,
  ...streamAdminRoutes,
  ...subscriptionRoutes,
  ...subscriptionSettingRoutes,
  ...userTopicRoutes,
  ...messageRoutes,
  ...messageReadRoutes,
  ...messageChangeRoutes,
  ...messageFlagRoutes,
  ...submessageRoutes,
  ...readReceiptRoutes,
  ...eventRoutes,
  ...userGroupRoutes,
  ...profileFieldRoutes,
  ...settingsRoutes,
  ...presenceRoutes,
  ...realmRoutes,
  ...realmEmojiRoutes,
  ...linkifierRoutes,
  ...defaultStreamRoutes,
  ...botRoutes,
  ...draftRoutes,
  ...scheduledMessageRoutes,
  ...uploadApiRoutes,
  ...mutedUserRoutes,
  ...inviteRoutes,
  ...realmDomainRoutes,
  ...avatarRoutes,
];

/** Routes outside /api/v1 (paths are absolute), such as the uploaded files under /user_uploads. */
export const rootRoutes: Route[] = [...uploadFileRoutes, ...imageProxyRoutes, ...serviceEmojiRoutes];

/** The browser's login and logout, and the server's own pages, at the root and authenticated by session. */
export const browserRoutes: Route[] = [...accountRoutes, ...joinRoutes, ...passwordRoutes];
