// The route table: every API operation, by resource.
import type { Route } from '../http/route.ts';
import { messageRoutes } from './messages.ts';
import { serverRoutes } from './server.ts';
import { streamRoutes } from './streams.ts';
import { subscriptionRoutes } from './subscriptions.ts';
import { userRoutes } from './users.ts';
import { userGroupRoutes } from './user-groups.ts';
import { profileFieldRoutes } from './profile-fields.ts';
import { settingsRoutes } from './settings.ts';
import { presenceRoutes } from './presence.ts';

export const routes: Route[] = [...serverRoutes, ...userRoutes, ...streamRoutes, ...subscriptionRoutes, ...messageRoutes, ...userGroupRoutes, ...profileFieldRoutes, ...settingsRoutes, ...presenceRoutes];
