// Session authentication, for the browser: the user comes from the session cookie, and unsafe
// methods must repeat the session's CSRF token in X-CSRFToken (a page of another site can make
// the browser send the cookie, but cannot read the token). Basic credentials are not read here.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Realm, Session, User } from '../db/schema.ts';
import { doTouchSession, sessionTokenHash } from '../actions/sessions.ts';
import { csrfFailed, notLoggedIn, userDeactivated } from '../lib/errors.ts';
import { LIMITS } from '../lib/limits.ts';
import { authenticate, loadSession, loadUserById, realmForRequest } from './auth.ts';
import { cookieValue, SESSION_COOKIE, setSessionCookies } from './cookies.ts';

type Mode = 'user' | 'optional' | 'none' | 'server';
export interface Identity {
  realm: Realm | null;
  user: User | null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function checkCsrf(request: FastifyRequest, session: Session): void {
  const sent = request.headers['x-csrftoken'];
  const ok =
    typeof sent === 'string' &&
    sent.length === session.csrf_token.length &&
    timingSafeEqual(Buffer.from(sent), Buffer.from(session.csrf_token));
  if (!ok) throw csrfFailed();
}

/** The session cookie's token, if the request carries one that could be ours. */
export function sessionToken(request: FastifyRequest): string | null {
  return cookieValue(request.headers.cookie, SESSION_COOKIE);
}

/** The stored hash of the session that authenticated this request; null for Basic credentials. */
export function requestSessionHash(request: FastifyRequest): string | null {
  const config = request.routeOptions.config as { authBy?: string } | undefined;
  if (config?.authBy !== 'session' && config?.authBy !== 'basic-or-session') return null;
  if (request.headers.authorization !== undefined && config.authBy !== 'session') return null;
  const token = sessionToken(request);
  return token ? sessionTokenHash(token) : null;
}

export async function authenticateSession(app: AppContext, request: FastifyRequest, reply: FastifyReply, mode: Mode): Promise<Identity> {
  if (mode === 'server') return authenticate(app, request, mode);
  const realm = await realmForRequest(app, request);
  if (mode === 'none') return { realm, user: null };
  const token = sessionToken(request);
  const now = Math.floor(Date.now() / 1000);
  const touchDue = (s: Session) => now - s.last_used_at >= LIMITS.sessionTouchSeconds;
  const session = token ? await loadSession(app, sessionTokenHash(token), now, touchDue) : undefined;
  if (!session || session.realm_id !== realm.id) {
    // An unknown or expired session is no session: the page shows its login form.
    if (mode === 'optional') return { realm, user: null };
    throw notLoggedIn();
  }
  const user = await loadUserById(app, realm.id, session.user_id);
  if (!user) throw notLoggedIn();
  if (!user.is_active) throw userDeactivated();
  if (!SAFE_METHODS.has(request.method)) checkCsrf(request, session);
  // Use renews the session; writing that on every request would make each read a write.
  if (touchDue(session)) {
    await doTouchSession(app, session.token_hash, now);
    setSessionCookies(reply, app.config, token!, session.csrf_token);
  }
  return { realm, user };
}

/**
 * Files a browser loads by URL (uploads in messages): Basic credentials as for the API, or, on a
 * GET that sends none, the session cookie. A Basic request never looks at cookies.
 */
export function authenticateBasicOrSession(app: AppContext, request: FastifyRequest, reply: FastifyReply, mode: Mode): Promise<Identity> {
  if (request.headers.authorization === undefined && request.headers.cookie !== undefined && SAFE_METHODS.has(request.method)) {
    return authenticateSession(app, request, reply, mode);
  }
  return authenticate(app, request, mode);
}
