import { sql } from 'kysely';
import { directReads, type Conn, type Db, type Dialect, type Tx } from '../database.ts';
import { keptRead } from '../kept.ts';
import type { Stream, Subscription } from '../schema.ts';

type Q = Conn | Tx;

// The lookups of a stream and of a subscription run on every send and every narrowed fetch:
// SQLite answers them through a kept statement (directReads).

export async function streamById(db: Q, realmId: number, id: number): Promise<Stream | undefined> {
  const direct = directReads(db);
  if (direct) return direct.get<Stream>('select * from streams where realm_id = ? and id = ? and deactivated = 0', [realmId, id]);
  return db.selectFrom('streams').selectAll().where('realm_id', '=', realmId).where('id', '=', id).where('deactivated', '=', 0).executeTakeFirst();
}

/** Case-insensitive, as stream names are unique regardless of case. */
export async function streamByName(db: Q, realmId: number, name: string): Promise<Stream | undefined> {
  const direct = directReads(db);
  if (direct) return direct.get<Stream>('select * from streams where realm_id = ? and lower(name) = ? and deactivated = 0', [realmId, name.toLowerCase()]);
  return db
    .selectFrom('streams')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .where('deactivated', '=', 0)
    .executeTakeFirst();
}

export async function streamsInRealm(db: Q, realmId: number): Promise<Stream[]> {
  return db.selectFrom('streams').selectAll().where('realm_id', '=', realmId).where('deactivated', '=', 0).orderBy('id').execute();
}

export async function streamsByIds(db: Q, realmId: number, ids: readonly number[]): Promise<Stream[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('streams').selectAll().where('realm_id', '=', realmId).where('id', 'in', [...ids]).orderBy('id').execute();
}

export async function insertStream(tx: Tx, values: Omit<Stream, 'id' | 'recipient_id' | 'first_message_id'>): Promise<Stream> {
  const { id } = await tx.insertInto('streams').values(values).returning('id').executeTakeFirstOrThrow();
  const recipient = await tx
    .insertInto('recipients')
    .values({ realm_id: values.realm_id, type: 2, stream_id: id, dm_key: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  await tx.updateTable('streams').set({ recipient_id: recipient.id }).where('id', '=', id).execute();
  return { ...values, id, recipient_id: recipient.id, first_message_id: null };
}

/**
 * Locks a stream's row until the transaction ends on PostgreSQL, so that concurrent changes to its
 * subscriptions each see the other's (SQLite runs one write transaction at a time).
 */
export async function lockStream(tx: Tx, streamId: number, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await tx.selectFrom('streams').select('id').where('id', '=', streamId).forUpdate().execute();
}

export async function subscription(db: Q, userId: number, streamId: number): Promise<Subscription | undefined> {
  const direct = directReads(db);
  if (direct) return direct.get<Subscription>('select * from subscriptions where user_id = ? and stream_id = ?', [userId, streamId]);
  return db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).where('stream_id', '=', streamId).executeTakeFirst();
}

/** The user's active subscriptions with their streams. */
export async function subscriptionsOfUser(db: Q, userId: number): Promise<{ sub: Subscription; stream: Stream }[]> {
  const subs = await db
    .selectFrom('subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('active', '=', 1)
    .orderBy('stream_id')
    .execute();
  if (subs.length === 0) return [];
  const streams = await db
    .selectFrom('streams')
    .selectAll()
    .where('id', 'in', subs.map((s) => s.stream_id))
    .where('deactivated', '=', 0)
    .execute();
  const byId = new Map(streams.map((s) => [s.id, s]));
  return subs.flatMap((sub) => {
    const stream = byId.get(sub.stream_id);
    return stream ? [{ sub, stream }] : [];
  });
}

/** All subscriptions rows (active or not) of a user, keyed by stream ID. */
export async function allSubscriptionRows(db: Q, userId: number): Promise<Map<number, Subscription>> {
  const rows = await db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).execute();
  return new Map(rows.map((r) => [r.stream_id, r]));
}

/** Active subscribers of each stream, among active users. */
export async function subscriberIds(db: Q, streamIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(streamIds.map((id) => [id, []]));
  if (streamIds.length === 0) return out;
  const rows = await db
    .selectFrom('subscriptions')
    .innerJoin('users', 'users.id', 'subscriptions.user_id')
    .select(['subscriptions.stream_id', 'subscriptions.user_id'])
    .where('subscriptions.stream_id', 'in', [...streamIds])
    .where('subscriptions.active', '=', 1)
    .where('users.is_active', '=', 1)
    .orderBy('subscriptions.user_id')
    .execute();
  for (const r of rows) out.get(r.stream_id)?.push(r.user_id);
  return out;
}

/**
 * One stream's active subscribers (subscriberIds), kept between sends (keptRead): every send to a
 * stream reads them, and they change seldom (reading 50 took about 40 µs of a send's CPU on
 * SQLite). `q` is the connection or transaction to read through when they are not kept.
 */
export async function activeSubscriberIds(db: Db, q: Q, streamId: number): Promise<readonly number[]> {
  return keptRead(db, `subscribers ${streamId}`, async () => (await subscriberIds(q, [streamId])).get(streamId) ?? []);
}

/** A stream by ID or name (streamById, streamByName), kept between sends (keptRead). */
export async function keptStream(db: Db, realmId: number, target: number | string): Promise<Readonly<Stream> | undefined> {
  if (typeof target === 'number') return keptRead(db, `stream ${realmId} ${target}`, () => streamById(db.kysely, realmId, target));
  return keptRead(db, `stream ${realmId} named ${target.toLowerCase()}`, () => streamByName(db.kysely, realmId, target));
}

/** A user's subscription row to a stream (subscription), kept between sends (keptRead). */
export async function keptSubscription(db: Db, userId: number, streamId: number): Promise<Readonly<Subscription> | undefined> {
  return keptRead(db, `subscription ${userId} ${streamId}`, () => subscription(db.kysely, userId, streamId));
}

export async function insertSubscription(tx: Tx, values: Omit<Subscription, 'id'>): Promise<void> {
  await tx.insertInto('subscriptions').values(values).execute();
}

export async function setSubscriptionActive(tx: Tx, userId: number, streamId: number, active: boolean): Promise<void> {
  await tx
    .updateTable('subscriptions')
    .set({ active: active ? 1 : 0 })
    .where('user_id', '=', userId)
    .where('stream_id', '=', streamId)
    .execute();
}

/**
 * The first message ID sent at or after `since`. Messages are numbered in the order they are
 * sent, so `date_sent` grows with the ID: a binary search over the primary key takes about 20
 * point reads, where a filter on `date_sent` (which has no index) reads every message.
 */
export async function firstMessageIdSince(db: Q, since: number): Promise<number | null> {
  // The bounds as two reads of the primary key's ends: SQLite answers min() or max() alone from
  // the index, but reads every message for both in one select (90 ms at 1,000,000 messages).
  const first = await db.selectFrom('messages').select('id').orderBy('id').limit(1).executeTakeFirst();
  const last = await db.selectFrom('messages').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (!first || !last) return null;
  let lo = first.id;
  let hi = last.id + 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const row = await db.selectFrom('messages').select(['id', 'date_sent']).where('id', '>=', mid).orderBy('id').limit(1).executeTakeFirst();
    if (!row || row.date_sent >= since) hi = mid;
    else lo = row.id + 1;
  }
  return lo > last.id ? null : lo;
}

/** Messages per stream since `since` (for stream_weekly_traffic), read through the (stream, id) index. */
export async function recentMessageCounts(db: Q, streamIds: readonly number[], since: number): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (streamIds.length === 0) return out;
  const firstId = await firstMessageIdSince(db, since);
  if (firstId === null) return out;
  const rows = await db
    .selectFrom('messages')
    .select(['stream_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('stream_id', 'in', [...streamIds])
    .where('id', '>=', firstId)
    .groupBy('stream_id')
    .execute();
  for (const r of rows) if (r.stream_id !== null) out.set(r.stream_id, Number(r.n));
  return out;
}

/** The realm's active users by ID, each with its active subscription to the stream (`sub_id`) or null. */
export async function activeUsersWithSubscription(db: Q, stream: Pick<Stream, 'id' | 'realm_id'>): Promise<{ id: number; role: number; sub_id: number | null }[]> {
  return db
    .selectFrom('users')
    .leftJoin('subscriptions', (j) =>
      j.onRef('subscriptions.user_id', '=', 'users.id').on('subscriptions.stream_id', '=', stream.id).on('subscriptions.active', '=', 1),
    )
    .select(['users.id', 'users.role', 'subscriptions.id as sub_id'])
    .where('users.realm_id', '=', stream.realm_id)
    .where('users.is_active', '=', 1)
    .orderBy('users.id')
    .execute();
}

/** Whether each stream's history is public to its subscribers. */
export async function streamsHistoryPublic(db: Q, streamIds: readonly number[]): Promise<{ id: number; history_public_to_subscribers: number }[]> {
  return db.selectFrom('streams').select(['id', 'history_public_to_subscribers']).where('id', 'in', [...streamIds]).execute();
}
