import { directReads, type Conn, type Tx } from '../database.ts';
import { keptRead } from '../kept.ts';
import { FLAG_BITS } from '../flags.ts';
import { sql } from 'kysely';

type Q = Conn | Tx;

export interface MutedUserRow {
  muted_user_id: number;
  date_muted: number;
}

export async function mutedUsersOf(db: Q, userId: number): Promise<MutedUserRow[]> {
  return db.selectFrom('muted_users').select(['muted_user_id', 'date_muted']).where('user_id', '=', userId).orderBy('muted_user_id').execute();
}

export async function isMuted(db: Q, userId: number, mutedUserId: number): Promise<boolean> {
  const row = await db.selectFrom('muted_users').select('user_id').where('user_id', '=', userId).where('muted_user_id', '=', mutedUserId).executeTakeFirst();
  return row !== undefined;
}

export async function insertMutedUser(tx: Tx, userId: number, mutedUserId: number, now: number): Promise<void> {
  await tx.insertInto('muted_users').values({ user_id: userId, muted_user_id: mutedUserId, date_muted: now }).execute();
}

export async function deleteMutedUser(tx: Tx, userId: number, mutedUserId: number): Promise<void> {
  await tx.deleteFrom('muted_users').where('user_id', '=', userId).where('muted_user_id', '=', mutedUserId).execute();
}

/**
 * Everyone who muted the sender: the send marks its copies for those among its receivers read.
 * By the index on muted_user_id, one short statement however many receive the message (a stream
 * of 1,000 bound 1,000 values a send when the receivers' list went into it); kept between sends
 * (keptRead).
 */
export async function usersWhoMuted(db: Q, senderId: number): Promise<ReadonlySet<number>> {
  const ids = await keptRead(db, `muted ${senderId}`, async () => {
    const direct = directReads(db);
    const rows = direct
      ? direct.all<{ user_id: number }>('select user_id from muted_users where muted_user_id = ?', [senderId])
      : await db.selectFrom('muted_users').select('user_id').where('muted_user_id', '=', senderId).execute();
    return rows.map((r) => r.user_id);
  });
  return new Set(ids);
}

/** Marks the user's unread messages from `senderId` read; returns their IDs. */
export async function markMessagesFromSenderRead(tx: Tx, userId: number, senderId: number): Promise<number[]> {
  const read = FLAG_BITS.read;
  const rows = await tx
    .selectFrom('user_messages')
    .innerJoin('messages', 'messages.id', 'user_messages.message_id')
    .select('user_messages.message_id')
    .where('user_messages.user_id', '=', userId)
    .where('messages.sender_id', '=', senderId)
    .where(sql<number>`(user_messages.flags & ${read})`, '=', 0)
    .orderBy('user_messages.message_id')
    .execute();
  const ids = rows.map((r) => r.message_id);
  for (let i = 0; i < ids.length; i += 500) {
    await tx
      .updateTable('user_messages')
      .set({ flags: sql<number>`flags | ${read}` })
      .where('user_id', '=', userId)
      .where('message_id', 'in', ids.slice(i, i + 500))
      .execute();
  }
  return ids;
}
