// The two cookies of a browser session. The Cookie header is small and only two names matter, so
// it is read here rather than by a cookie plugin that would parse it on every request.
import type { FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import { LIMITS } from '../lib/limits.ts';

export const SESSION_COOKIE = 'parley_session';
export const CSRF_COOKIE = 'parley_csrf';

/** Our cookie values are base64url; anything else in a cookie of ours is not ours. */
const VALUE = /^[A-Za-z0-9_-]{1,200}$/;

/** The value of the named cookie in a Cookie header, or null (also for a malformed value). */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    return VALUE.test(value) ? value : null;
  }
  return null;
}

function setCookie(name: string, value: string, maxAge: number, httpOnly: boolean, secure: boolean): string {
  return `${name}=${value}; Max-Age=${maxAge}; Path=/; ${httpOnly ? 'HttpOnly; ' : ''}SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** Sets both cookies (at login, and again when use renews the session). */
export function setSessionCookies(reply: FastifyReply, config: Config, token: string, csrfToken: string): void {
  const secure = config.externalScheme === 'https';
  const maxAge = LIMITS.sessionLifetimeSeconds;
  void reply.header('set-cookie', [setCookie(SESSION_COOKIE, token, maxAge, true, secure), setCookie(CSRF_COOKIE, csrfToken, maxAge, false, secure)]);
}

export function clearSessionCookies(reply: FastifyReply, config: Config): void {
  const secure = config.externalScheme === 'https';
  // Fastify appends Set-Cookie values: drop a renewal set earlier in this request.
  reply.removeHeader('set-cookie');
  void reply.header('set-cookie', [setCookie(SESSION_COOKIE, '', 0, true, secure), setCookie(CSRF_COOKIE, '', 0, false, secure)]);
}
