// Writes and reads of subscription rows beyond the basics in streams.ts, and read receipts.
import { sql, type Updateable } from 'kysely';
import type { Conn, Tx } from '../database.ts';
import type { SubscriptionsTable } from '../schema.ts';
import { FLAG_BITS } from '../flags.ts';

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
export async function readersOfMessage(db: Q, messageId: number, exceptUserId: number, viewerId: number): Promise<{ id: number; settings: string }[]> {
  return db
    .selectFrom('user_messages as um')
    .innerJoin('users as u', 'u.id', 'um.user_id')
    .select(['u.id', 'u.settings'])
    .where('um.message_id', '=', messageId)
    .where('u.id', '<>', exceptUserId)
    .where('u.is_active', '=', 1)
    .where(sql<boolean>`(um.flags & ${FLAG_BITS.read}) <> 0`)
    // Muting hides people both ways: neither whom the viewer muted nor who muted the viewer.
    .where(
      sql<boolean>`not exists (select 1 from muted_users mu where (mu.user_id = ${viewerId} and mu.muted_user_id = u.id) or (mu.user_id = u.id and mu.muted_user_id = ${viewerId}))`,
    )
    .orderBy('u.id')
    .execute();
}

/** A new subscription: active, its color picked from the stream ID and the position in a batch. */
const COLORS = ['#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5', '#f5ce6e', '#c2726a', '#94c849', '#bd86e5'];

export function newSubscriptionRow(userId: number, streamId: number, index: number) {
  return {
    user_id: userId,
    stream_id: streamId,
    active: 1,
    is_muted: 0,
    pin_to_top: 0,
    color: COLORS[(streamId + index) % COLORS.length]!,
    desktop_notifications: null,
    email_notifications: null,
    push_notifications: null,
    audible_notifications: null,
    wildcard_mentions_notify: null,
  };
}
