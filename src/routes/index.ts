// The route table: every API operation, by resource.
import type { Route } from '../http/route.ts';
import { messageRoutes } from './messages.ts';
import { serverRoutes } from './server.ts';
import { streamRoutes } from './streams.ts';
import { subscriptionRoutes } from './subscriptions.ts';
import { userRoutes } from './users.ts';
import { eventRoutes } from './events.ts';

import { subscriptionSettingRoutes } from './subscription-settings.ts';
import { userTopicRoutes } from './user-topics.ts';
import { readReceiptRoutes } from './read-receipts.ts';

import { userGroupRoutes } from './user-groups.ts';
import { profileFieldRoutes } from './profile-fields.ts';
import { settingsRoutes } from './settings.ts';
import { presenceRoutes } from './presence.ts';

export const routes: Route[] = [...serverRoutes, ...userRoutes, ...streamRoutes, ...subscriptionRoutes, ...messageRoutes, ...eventRoutes, ...subscriptionSettingRoutes, ...userTopicRoutes, ...readReceiptRoutes, ...userGroupRoutes, ...profileFieldRoutes, ...settingsRoutes, ...presenceRoutes];
