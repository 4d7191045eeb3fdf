// Browser sessions: created by a password login, renewed by use, ended by logout (one, or all
// of a person's at once).
import { createHash, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { User } from '../db/schema.ts';
import { deleteExpiredSessions, deleteSession, deleteSessionsOfUser, insertSession, touchSession } from '../db/queries/sessions.ts';
import { LIMITS } from '../lib/limits.ts';
import { runAction } from './action.ts';

/** What the cookies carry: the session token (only its hash is stored) and the CSRF token. */
export interface SessionTokens {
  token: string;
  csrfToken: string;
}

/** The stored form of a session token. */
export function sessionTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function doCreateSession(app: AppContext, user: User): Promise<SessionTokens> {
  const tokens = { token: randomBytes(32).toString('base64url'), csrfToken: randomBytes(32).toString('base64url') };
  await runAction(app, async ({ tx, now }) => {
    // Logins are rare: a good moment to drop the sessions nobody used for the whole lifetime.
    await deleteExpiredSessions(tx, now);
    await insertSession(tx, {
      token_hash: sessionTokenHash(tokens.token),
      user_id: user.id,
      realm_id: user.realm_id,
      csrf_token: tokens.csrfToken,
      created_at: now,
      last_used_at: now,
      expires_at: now + LIMITS.sessionLifetimeSeconds,
    });
  });
  return tokens;
}

/** Records a use of the session, moving its expiry to a full lifetime from now. */
export async function doTouchSession(app: AppContext, tokenHash: string, now: number): Promise<void> {
  await touchSession(app.db.kysely, tokenHash, now, LIMITS.sessionLifetimeSeconds);
}

export async function doEndSession(app: AppContext, token: string): Promise<void> {
  await runAction(app, ({ tx }) => deleteSession(tx, sessionTokenHash(token)));
}

/**
 * Ends every browser session of the user, the caller's own included ("log out everywhere").
 * API keys are not sessions and keep working: regenerating the key is what revokes those.
 */
export async function doEndAllSessions(app: AppContext, user: User): Promise<void> {
  await runAction(app, async ({ tx, sessionsEnded }) => {
    await deleteSessionsOfUser(tx, user.id);
    sessionsEnded(user.id);
  });
}
