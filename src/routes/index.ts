// The route table: every API operation, by resource.
import type { Route } from '../http/route.ts';
import { messageRoutes } from './messages.ts';
import { serverRoutes } from './server.ts';
import { streamRoutes } from './streams.ts';
import { subscriptionRoutes } from './subscriptions.ts';
import { userRoutes } from './users.ts';
import { messageReadRoutes } from './message-reads.ts';
import { messageChangeRoutes } from './message-changes.ts';
import { messageFlagRoutes } from './message-flags.ts';

export const routes: Route[] = [...serverRoutes, ...userRoutes, ...streamRoutes, ...subscriptionRoutes, ...messageRoutes, ...messageReadRoutes, ...messageChangeRoutes, ...messageFlagRoutes];
