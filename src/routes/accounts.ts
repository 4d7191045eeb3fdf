// The browser's login and logout (registered at the root, with session authentication): a
// session row and its two cookies; the page never sees an API key. "Log out everywhere" ends
// all of the person's sessions (this one too); their API keys are left as they are.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { route, SENT, type HandlerResult } from '../http/route.ts';
import { p } from '../http/params.ts';
import { checkPasswordLogin } from '../http/login.ts';
import { clearSessionCookies, setSessionCookies } from '../http/cookies.ts';
import { sessionToken } from '../http/session.ts';
import { doCreateSession, doEndAllSessions, doEndSession } from '../actions/sessions.ts';

/** A plain HTML form post is sent on to the app; the app's own requests get JSON. */
function answer(http: FastifyRequest, reply: FastifyReply, fields: Record<string, unknown>): HandlerResult {
  if (!(http.headers.accept ?? '').includes('text/html')) return fields;
  void reply.code(303).header('location', '/').send();
  return SENT;
}

export const accountRoutes = [
  route({
    method: 'POST',
    path: '/accounts/login/',
    auth: 'none',
    params: { username: p.string({ trim: true }), password: p.string() },
    async handler({ app, realm, params, http, reply }) {
      const user = await checkPasswordLogin(app, http, realm, params.username, params.password);
      const { token, csrfToken } = await doCreateSession(app, user);
      setSessionCookies(reply, app.config, token, csrfToken);
      return answer(http, reply, { user_id: user.id, email: user.email });
    },
  }),
  route({
    method: 'POST',
    path: '/accounts/logout/',
    // Without a live session there is nothing to end: the cookies are cleared all the same.
    auth: 'optional',
    params: {},
    async handler({ app, http, reply }) {
      const token = sessionToken(http);
      if (token) await doEndSession(app, token);
      clearSessionCookies(reply, app.config);
      return answer(http, reply, {});
    },
  }),
  route({
    method: 'POST',
    path: '/accounts/logout/everywhere/',
    // Only a live session may end the others (with its CSRF token, as every unsafe request).
    auth: 'user',
    params: {},
    async handler({ app, user, http, reply }) {
      await doEndAllSessions(app, user);
      clearSessionCookies(reply, app.config);
      return answer(http, reply, {});
    },
  }),
];
