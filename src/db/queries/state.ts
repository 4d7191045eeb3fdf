// Reads for the register snapshot: unread messages, recent direct-message conversations,
// default streams.
import { sql, type SqlBool } from 'kysely';
import type { Conn, Tx } from '../database.ts';
import type { Stream } from '../schema.ts';

type Q = Conn | Tx;

export interface UnreadRow {
  message_id: number;
  flags: number;
  sender_id: number;
  recipient_id: number;
  stream_id: number | null;
  topic: string;
}

/** The user's unread messages, oldest first; capped like the reference (50,000). */
export async function unreadMessages(db: Q, userId: number, readBit: number, limit = 50_000): Promise<UnreadRow[]> {
  return db
    .selectFrom('user_messages as um')
    .innerJoin('messages as m', 'm.id', 'um.message_id')
    .select(['um.message_id', 'um.flags', 'm.sender_id', 'm.recipient_id', 'm.stream_id', 'm.topic'])
    .where('um.user_id', '=', userId)
    .where(sql<SqlBool>`(um.flags & ${readBit}) = 0`)
    .orderBy('um.message_id', 'asc')
    .limit(limit)
    .execute();
}

/** Each direct-message conversation of the user with the id of its latest message. */
export async function recentDmConversations(db: Q, userId: number, limit = 1000): Promise<{ recipient_id: number; max_id: number }[]> {
  return db
    .selectFrom('user_messages as um')
    .innerJoin('messages as m', 'm.id', 'um.message_id')
    .select(['m.recipient_id', (eb) => eb.fn.max<number>('m.id').as('max_id')])
    .where('um.user_id', '=', userId)
    .where('m.stream_id', 'is', null)
    .groupBy('m.recipient_id')
    .orderBy('max_id', 'desc')
    .limit(limit)
    .execute();
}

export async function defaultStreamsOfRealm(db: Q, realmId: number): Promise<Stream[]> {
  return db
    .selectFrom('default_streams as d')
    .innerJoin('streams as s', 's.id', 'd.stream_id')
    .selectAll('s')
    .where('d.realm_id', '=', realmId)
    .where('s.deactivated', '=', 0)
    .orderBy('s.name')
    .execute();
}
