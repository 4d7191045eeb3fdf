// Password reset tokens, found by the SHA-256 of the token in the link.
import type { Conn, Tx } from '../database.ts';

type Q = Conn | Tx;

export async function insertPasswordReset(tx: Tx, row: { token_hash: string; user_id: number; created_at: number; expires_at: number }): Promise<void> {
  await tx.insertInto('password_resets').values(row).execute();
}

/** The user of a reset token that has not expired. */
export async function livePasswordReset(db: Q, tokenHash: string, now: number): Promise<{ user_id: number } | undefined> {
  return db.selectFrom('password_resets').select('user_id').where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst();
}

/** Spends a token; false when it was spent (or had expired) already, by another request. */
export async function claimPasswordReset(tx: Tx, tokenHash: string, now: number): Promise<boolean> {
  const r = await tx.deleteFrom('password_resets').where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** A new password makes the user's other links worthless; expired ones of anyone go too. */
export async function deletePasswordResetsOf(tx: Tx, userId: number, now: number): Promise<void> {
  await tx.deleteFrom('password_resets').where((eb) => eb.or([eb('user_id', '=', userId), eb('expires_at', '<=', now)])).execute();
}
