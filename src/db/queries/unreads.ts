// The user's unread messages, for the register snapshot's unread counts.
import { sql } from 'kysely';
import type { Conn, Tx } from '../database.ts';

type Q = Conn | Tx;

export async function unreadRows(db: Q, userId: number, limit: number) {
  return db
    .selectFrom('user_messages as um')
    .innerJoin('messages as m', 'm.id', 'um.message_id')
    .innerJoin('recipients as r', 'r.id', 'm.recipient_id')
    .select(['m.id', 'm.stream_id', 'm.topic', 'm.sender_id', 'r.dm_key', 'um.flags'])
    .where('um.user_id', '=', userId)
    .where(sql<boolean>`(um.flags & 1) = 0`)
    .orderBy('um.message_id', 'desc')
    .limit(limit)
    .execute();
}

export async function starredIds(db: Q, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('user_messages')
    .select('message_id')
    .where('user_id', '=', userId)
    .where(sql<boolean>`(flags & 2) <> 0`)
    .orderBy('message_id')
    .execute();
  return rows.map((r) => r.message_id);
}

export async function maxMessageId(db: Q, userId: number): Promise<number> {
  const row = await db.selectFrom('user_messages').select((eb) => eb.fn.max('message_id').as('max')).where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.max ?? -1);
}
