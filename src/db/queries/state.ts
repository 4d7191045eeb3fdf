// Reads for the register snapshot: recent direct-message conversations.
import type { Conn, Tx } from '../database.ts';

type Q = Conn | Tx;

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
