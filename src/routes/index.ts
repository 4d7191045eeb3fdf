// The route table: every API operation, by resource.
import type { Route } from '../http/route.ts';
import { messageRoutes } from './messages.ts';
import { serverRoutes } from './server.ts';
import { streamRoutes } from './streams.ts';
import { subscriptionRoutes } from './subscriptions.ts';
import { userRoutes } from './users.ts';
import { draftRoutes } from './drafts.ts';
import { scheduledMessageRoutes } from './scheduled-messages.ts';
import { uploadApiRoutes, uploadFileRoutes } from './uploads.ts';
import { mutedUserRoutes } from './muted-users.ts';

export const routes: Route[] = [...serverRoutes, ...userRoutes, ...streamRoutes, ...subscriptionRoutes, ...messageRoutes,
  ...draftRoutes,
  ...scheduledMessageRoutes,
  ...uploadApiRoutes,
  ...mutedUserRoutes,
];

/** Routes outside /api/v1 (paths are absolute), such as the uploaded files under /user_uploads. */
export const rootRoutes: Route[] = [...uploadFileRoutes];
