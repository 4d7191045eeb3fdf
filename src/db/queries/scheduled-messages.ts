import type { Insertable, Updateable } from 'kysely';
import type { Conn, Tx } from '../database.ts';
import type { ScheduledMessage, ScheduledMessagesTable } from '../schema.ts';

type Q = Conn | Tx;

/** The user's undelivered scheduled messages, soonest first. */
export async function pendingScheduledMessagesOf(db: Q, userId: number): Promise<ScheduledMessage[]> {
  return db
    .selectFrom('scheduled_messages')
    .selectAll()
    .where('sender_id', '=', userId)
    .where('delivered', '=', 0)
    .orderBy('scheduled_timestamp')
    .orderBy('id')
    .execute();
}

export async function pendingScheduledMessageOf(db: Q, userId: number, id: number): Promise<ScheduledMessage | undefined> {
  return db
    .selectFrom('scheduled_messages')
    .selectAll()
    .where('sender_id', '=', userId)
    .where('id', '=', id)
    .where('delivered', '=', 0)
    .executeTakeFirst();
}

export async function insertScheduledMessage(tx: Tx, values: Insertable<ScheduledMessagesTable>): Promise<ScheduledMessage> {
  return tx.insertInto('scheduled_messages').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateScheduledMessage(tx: Tx, id: number, values: Updateable<ScheduledMessagesTable>): Promise<ScheduledMessage> {
  return tx.updateTable('scheduled_messages').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteScheduledMessage(tx: Tx, id: number): Promise<void> {
  await tx.deleteFrom('scheduled_messages').where('id', '=', id).execute();
}

/** Due messages nobody is delivering (no claim, or a claim whose owner let it expire). */
export async function dueScheduledMessages(db: Q, now: number, limit: number): Promise<ScheduledMessage[]> {
  return db
    .selectFrom('scheduled_messages')
    .selectAll()
    .where('delivered', '=', 0)
    .where('failed', '=', 0)
    .where('scheduled_timestamp', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .orderBy('scheduled_timestamp')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Takes the row for one delivering process; false when another process holds it. */
export async function claimScheduledMessage(db: Q, id: number, token: string, now: number, until: number): Promise<boolean> {
  const r = await db
    .updateTable('scheduled_messages')
    .set({ claim_token: token, claimed_until: until })
    .where('id', '=', id)
    .where('delivered', '=', 0)
    .where('failed', '=', 0)
    .where('scheduled_timestamp', '<=', now)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Marks the row delivered if this claim still holds it (not edited, deleted or re-claimed). */
export async function markScheduledMessageDelivered(tx: Tx, id: number, token: string, messageId: number): Promise<boolean> {
  const r = await tx
    .updateTable('scheduled_messages')
    .set({ delivered: 1, delivered_message_id: messageId, claim_token: null, claimed_until: null })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .where('delivered', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function markScheduledMessageFailed(tx: Tx, id: number, token: string, why: string): Promise<ScheduledMessage | undefined> {
  return tx
    .updateTable('scheduled_messages')
    .set({ failed: 1, failure_message: why, claim_token: null, claimed_until: null })
    .where('id', '=', id)
    .where('claim_token', '=', token)
    .where('delivered', '=', 0)
    .returningAll()
    .executeTakeFirst();
}
