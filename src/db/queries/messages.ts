import { sql } from 'kysely';
import { directStatements, type Conn, type Tx } from '../database.ts';
import { encodeRecipients } from '../pending-user-messages.ts';
import type { Message } from '../schema.ts';
import { FLAG_BITS } from '../flags.ts';

type Q = Conn | Tx;

/**
 * A new message's row and its recipients' user_messages rows (user ID to flags), in the send's
 * transaction; answers the message's ID. SQLite runs it through kept statements
 * (directStatements) and stores the recipients as one pending row, moved into user_messages in
 * batches before anyone reads them (pending-user-messages.ts). PostgreSQL writes both in one
 * statement, the recipients as two arrays: one round trip, and one short text to parse however
 * many recipients there are.
 */
export async function insertMessage(tx: Tx, values: Omit<Message, 'id'>, flagsByUser: ReadonlyMap<number, number>): Promise<number> {
  const columns = Object.keys(values);
  const direct = directStatements(tx);
  if (direct) {
    const text = `insert into messages (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`;
    const id = direct.run(text, Object.values(values)).lastInsertRowid;
    if (flagsByUser.size > 0) direct.run('insert into pending_user_messages (message_id, recipients) values (?, ?)', [id, encodeRecipients(flagsByUser)]);
    return id;
  }
  const row = sql`insert into messages (${sql.join(columns.map((c) => sql.ref(c)))}) values (${sql.join(Object.values(values))}) returning id`;
  if (flagsByUser.size === 0) return (await sql<{ id: number }>`${row}`.execute(tx)).rows[0]!.id;
  const { rows } = await sql<{ id: number }>`with m as (${row}), r as (
      insert into user_messages (user_id, message_id, flags)
      select t.user_id, m.id, t.flags from m, unnest(${[...flagsByUser.keys()]}::integer[], ${[...flagsByUser.values()]}::integer[]) as t(user_id, flags)
    ) select id from m`.execute(tx);
  return rows[0]!.id;
}

/**
 * Gives a user rows for the newest `total` messages, sent after `since`, of those streams whose
 * history is public to their subscribers (a new person's start): the newest `unread` of them
 * unread, the rest read, all `historical` (they were not received). One statement, bounded: a
 * stream's `total`th newest message is a floor under the newest `total` of them all, so the
 * (stream, id) index reads at most `total` entries a stream. Rows the user has stay as they are.
 */
export async function insertRecentStreamHistory(tx: Tx, userId: number, streamIds: readonly number[], opts: { since: number; total: number; unread: number }): Promise<void> {
  if (streamIds.length === 0 || opts.total <= 0) return;
  const open = sql`select s.id from streams s where s.id in (${sql.join(streamIds)}) and s.history_public_to_subscribers = 1`;
  const nth = sql`select n.id from messages n where n.stream_id = o.id order by n.id desc limit 1 offset ${opts.total - 1}`;
  const floor = sql`select max((${nth})) from (${open}) o`;
  // `where true`: SQLite would read `on conflict` after a bare `from` as a join's constraint.
  await sql`insert into user_messages (user_id, message_id, flags)
    select cast(${userId} as integer), r.id, case when r.n <= ${opts.unread} then ${sql.lit(FLAG_BITS.historical)} else ${sql.lit(FLAG_BITS.historical | FLAG_BITS.read)} end
    from (
      select m.id, row_number() over (order by m.id desc) as n
      from messages m
      where m.stream_id in (${open}) and m.id >= coalesce((${floor}), 0) and m.date_sent > ${opts.since}
      order by m.id desc
      limit ${opts.total}
    ) r
    where true
    on conflict (user_id, message_id) do nothing`.execute(tx);
}

export async function messageById(db: Q, realmId: number, id: number): Promise<Message | undefined> {
  return db.selectFrom('messages').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}

export async function userMessageFlags(db: Q, userId: number, messageIds: readonly number[]): Promise<Map<number, number>> {
  if (messageIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('user_messages')
    .select(['message_id', 'flags'])
    .where('user_id', '=', userId)
    .where('message_id', 'in', [...messageIds])
    .execute();
  return new Map(rows.map((r) => [r.message_id, r.flags]));
}

/** Records a stream's first message; true when this message was the first. */
export async function setStreamFirstMessage(tx: Tx, streamId: number, messageId: number): Promise<boolean> {
  const r = await tx.updateTable('streams').set({ first_message_id: messageId }).where('id', '=', streamId).where('first_message_id', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export interface ReactionRow {
  message_id: number;
  user_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

/** The active users who have any of these messages (a user_messages row), each once. */
export async function activeHolderIds(db: Q, messageIds: readonly number[]): Promise<number[]> {
  const rows = await db
    .selectFrom('user_messages as um')
    .innerJoin('users as u', 'u.id', 'um.user_id')
    .select('um.user_id')
    .distinct()
    .where('um.message_id', 'in', [...messageIds])
    .where('u.is_active', '=', 1)
    .execute();
  return rows.map((r) => r.user_id);
}

/** Messages by ID, whatever their realm (IDs the caller already checked). */
export async function messagesByIdsInAnyRealm(db: Q, ids: readonly number[]): Promise<Message[]> {
  return db.selectFrom('messages').selectAll().where('id', 'in', [...ids]).execute();
}

/** A message that must exist. */
export async function messageByIdOrThrow(db: Q, id: number): Promise<Message> {
  return db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
