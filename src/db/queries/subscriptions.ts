// Writes and reads of subscription rows beyond the basics in streams.ts, and read receipts.
import { sql, type Updateable } from 'kysely';
import type { Conn, Tx } from '../database.ts';
import type { SubscriptionsTable } from '../schema.ts';
import { FLAG_BITS } from '../../lib/flags.ts';

type Q = Conn | Tx;

export async function updateSubscription(tx: Tx, id: number, values: Updateable<SubscriptionsTable>): Promise<void> {
  await tx.updateTable('subscriptions').set(values).where('id', '=', id).execute();
}

export async function isSubscribed(db: Q, userId: number, streamId: number): Promise<boolean> {
  const row = await db
    .selectFrom('subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .where('stream_id', '=', streamId)
    .where('active', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Active users other than `exceptUserId` who have read the message, with their settings. */
export async function readersOfMessage(db: Q, messageId: number, exceptUserId: number): Promise<{ id: number; settings: string }[]> {
  return db
    .selectFrom('user_messages as um')
    .innerJoin('users as u', 'u.id', 'um.user_id')
    .select(['u.id', 'u.settings'])
    .where('um.message_id', '=', messageId)
    .where('u.id', '<>', exceptUserId)
    .where('u.is_active', '=', 1)
    .where(sql<boolean>`(um.flags & ${FLAG_BITS.read}) <> 0`)
    .orderBy('u.id')
    .execute();
}
