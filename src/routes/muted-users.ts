// Muting and unmuting users.
import { id } from '../http/ids.ts';
import { route } from '../http/route.ts';
import { path } from '../http/params.ts';
import { checkMuteUser, checkUnmuteUser } from '../actions/muted-users.ts';

export const mutedUserRoutes = [
  route({
    method: 'POST',
    path: '/users/me/muted_users/{muted_user_id}',
    auth: 'user',
    params: { muted_user_id: path(id()) },
    async handler({ app, user, params }) {
      await checkMuteUser(app, user, params.muted_user_id);
      return {};
    },
  }),
  route({
    method: 'DELETE',
    path: '/users/me/muted_users/{muted_user_id}',
    auth: 'user',
    params: { muted_user_id: path(id()) },
    async handler({ app, user, params }) {
      await checkUnmuteUser(app, user, params.muted_user_id);
      return {};
    },
  }),
];
