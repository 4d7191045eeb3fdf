// The route table: every API operation, by resource.
import type { Route } from '../http/route.ts';
import { messageRoutes } from './messages.ts';
import { serverRoutes } from './server.ts';
import { streamRoutes } from './streams.ts';
import { subscriptionRoutes } from './subscriptions.ts';
import { userRoutes } from './users.ts';
import { realmRoutes } from './realm.ts';
import { realmEmojiRoutes } from './realm-emoji.ts';
import { linkifierRoutes } from './linkifiers.ts';
import { defaultStreamRoutes } from './default-streams.ts';
import { botRoutes } from './bots.ts';
import { streamAdminRoutes } from './stream-admin.ts';

export const routes: Route[] = [...serverRoutes, ...userRoutes, ...streamRoutes, ...subscriptionRoutes, ...messageRoutes,
  ...realmRoutes, ...realmEmojiRoutes, ...linkifierRoutes, ...defaultStreamRoutes, ...botRoutes, ...streamAdminRoutes];
