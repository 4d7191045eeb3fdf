import type { Conn, Tx } from '../database.ts';
import type { Recipient } from '../schema.ts';

export const dmKey = (userIds: Iterable<number>): string => [...new Set(userIds)].sort((a, b) => a - b).join(',');

export const dmKeyUsers = (key: string): number[] => key.split(',').filter(Boolean).map(Number);

/** The recipient row of a direct-message conversation among these users, created if new. */
export async function dmRecipient(tx: Tx, realmId: number, userIds: Iterable<number>): Promise<Recipient> {
  const key = dmKey(userIds);
  const existing = await tx.selectFrom('recipients').selectAll().where('realm_id', '=', realmId).where('dm_key', '=', key).executeTakeFirst();
  if (existing) return existing;
  return tx.insertInto('recipients').values({ realm_id: realmId, type: 3, stream_id: null, dm_key: key }).returningAll().executeTakeFirstOrThrow();
}

export async function findDmRecipient(db: Conn | Tx, realmId: number, userIds: Iterable<number>): Promise<Recipient | undefined> {
  return db.selectFrom('recipients').selectAll().where('realm_id', '=', realmId).where('dm_key', '=', dmKey(userIds)).executeTakeFirst();
}

export async function recipientsByIds(db: Conn | Tx, ids: readonly number[]): Promise<Map<number, Recipient>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('recipients').selectAll().where('id', 'in', [...ids]).execute();
  return new Map(rows.map((r) => [r.id, r]));
}
