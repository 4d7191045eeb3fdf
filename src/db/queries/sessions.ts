// Browser sessions (see the sessions migration): found by the hash of the cookie's token.
import type { Conn, Tx } from '../database.ts';
import type { Session } from '../schema.ts';

type Q = Conn | Tx;

export async function insertSession(db: Q, row: Session): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/** The session with this token hash, unless it has expired. */
export async function liveSession(db: Q, tokenHash: string, now: number): Promise<Session | undefined> {
  return db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst();
}

/**
 * Records a use: the session now lives `lifetime` seconds from `now`. Its statement is known to
 * authentication's cache as one that only extends a session (SESSION_TOUCH, database.ts): keep
 * both the same.
 */
export async function touchSession(db: Q, tokenHash: string, now: number, lifetime: number): Promise<void> {
  await db.updateTable('sessions').set({ last_used_at: now, expires_at: now + lifetime }).where('token_hash', '=', tokenHash).execute();
}

export async function deleteSession(db: Q, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

export async function deleteExpiredSessions(db: Q, now: number): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
}

/** Ends every session of the user, but the one with `exceptHash` (the request's own) if given. */
export async function deleteSessionsOfUser(db: Q, userId: number, exceptHash: string | null = null): Promise<void> {
  let q = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptHash !== null) q = q.where('token_hash', '!=', exceptHash);
  await q.execute();
}
