// Changing and archiving streams.
import { sql } from 'kysely';
import type { Tx } from '../database.ts';
import type { StreamsTable } from '../schema.ts';
import type { Updateable } from 'kysely';

export async function updateStream(tx: Tx, streamId: number, values: Updateable<StreamsTable>): Promise<void> {
  await tx.updateTable('streams').set(values).where('id', '=', streamId).execute();
}

/** Whether another stream of the realm (archived ones included) has this name, ignoring case. */
export async function streamNameTaken(tx: Tx, realmId: number, name: string, exceptId: number): Promise<boolean> {
  const row = await tx
    .selectFrom('streams')
    .select('id')
    .where('realm_id', '=', realmId)
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function deactivateSubscriptions(tx: Tx, streamId: number): Promise<void> {
  await tx.updateTable('subscriptions').set({ active: 0 }).where('stream_id', '=', streamId).execute();
}

/** An archived stream's messages stop counting as unread for everyone. */
export async function markStreamMessagesRead(tx: Tx, streamId: number): Promise<void> {
  await tx
    .updateTable('user_messages')
    .set({ flags: sql<number>`flags | 1` })
    .where('message_id', 'in', (eb) => eb.selectFrom('messages').select('id').where('stream_id', '=', streamId))
    .execute();
}
