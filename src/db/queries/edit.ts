// Queries of message editing and moving: a topic's messages, row updates, access rows.
import { sql, type Updateable } from 'kysely';
import type { Conn, Dialect, Tx } from '../database.ts';
import type { Message, MessagesTable } from '../schema.ts';

type Q = Conn | Tx;
const CHUNK = 500;

/** Messages of a stream topic (case-insensitive), oldest first; optionally from an ID on, or only the user's. */
export async function topicMessages(db: Q, streamId: number, topic: string, opts: { fromId?: number; onlyUserId?: number } = {}): Promise<Message[]> {
  let q = db.selectFrom('messages as m').selectAll('m').where('m.stream_id', '=', streamId).where(sql`lower(m.topic)`, '=', topic.toLowerCase());
  if (opts.fromId !== undefined) q = q.where('m.id', '>=', opts.fromId);
  if (opts.onlyUserId !== undefined) {
    const uid = opts.onlyUserId;
    q = q.where((eb) => eb.exists(eb.selectFrom('user_messages as um').select('um.message_id').whereRef('um.message_id', '=', 'm.id').where('um.user_id', '=', uid)));
  }
  return q.orderBy('m.id').execute();
}

/**
 * A message re-read inside the editing transaction, its row locked until commit on PostgreSQL, so
 * that concurrent edits each see the one before (SQLite runs one write transaction at a time).
 */
export async function lockMessage(tx: Tx, id: number, dialect: Dialect): Promise<Message | undefined> {
  const q = tx.selectFrom('messages').selectAll().where('id', '=', id);
  return (dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
}

export async function updateMessage(tx: Tx, id: number, values: Updateable<MessagesTable>): Promise<void> {
  await tx.updateTable('messages').set(values).where('id', '=', id).execute();
}

/** Moves messages to a stream and topic in one statement per chunk. */
export async function moveMessages(tx: Tx, ids: readonly number[], values: { stream_id: number; recipient_id: number; topic: string; last_edit_time: number }): Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) await tx.updateTable('messages').set(values).where('id', 'in', ids.slice(i, i + CHUNK)).execute();
}

/** user ID -> flags of everyone who has this message. */
export async function messageHolders(db: Q, messageId: number): Promise<Map<number, number>> {
  const rows = await db.selectFrom('user_messages').select(['user_id', 'flags']).where('message_id', '=', messageId).execute();
  return new Map(rows.map((r) => [r.user_id, r.flags]));
}

/** Users who have at least one of these messages. */
export async function holdersOfAny(db: Q, ids: readonly number[]): Promise<Set<number>> {
  const out = new Set<number>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db.selectFrom('user_messages').select('user_id').distinct().where('message_id', 'in', ids.slice(i, i + CHUNK)).execute();
    rows.forEach((r) => out.add(r.user_id));
  }
  return out;
}

export async function setMentionBits(tx: Tx, messageId: number, userIds: readonly number[], bits: number, mask: number): Promise<void> {
  if (userIds.length === 0) {
    await tx.updateTable('user_messages').set({ flags: sql`flags & ${~mask}` }).where('message_id', '=', messageId).execute();
    return;
  }
  await tx.updateTable('user_messages').set({ flags: sql`(flags & ${~mask})` }).where('message_id', '=', messageId).execute();
  for (let i = 0; i < userIds.length; i += CHUNK) {
    await tx
      .updateTable('user_messages')
      .set({ flags: sql`flags | ${bits}` })
      .where('message_id', '=', messageId)
      .where('user_id', 'in', userIds.slice(i, i + CHUNK))
      .execute();
  }
}

export async function deleteUserMessageRows(tx: Tx, userIds: readonly number[], messageIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  for (let i = 0; i < messageIds.length; i += CHUNK) {
    await tx.deleteFrom('user_messages').where('user_id', 'in', [...userIds]).where('message_id', 'in', messageIds.slice(i, i + CHUNK)).execute();
  }
}

export async function insertUserMessageRows(tx: Tx, userIds: readonly number[], messageIds: readonly number[], flags: number): Promise<void> {
  const rows = userIds.flatMap((user_id) => messageIds.map((message_id) => ({ user_id, message_id, flags })));
  for (let i = 0; i < rows.length; i += CHUNK) await tx.insertInto('user_messages').values(rows.slice(i, i + CHUNK)).execute();
}

/** Puts the same entry first in the edit history (a JSON array) of many messages at once. */
export async function prependEditHistory(tx: Tx, ids: readonly number[], entry: object): Promise<void> {
  const json = JSON.stringify(entry);
  for (let i = 0; i < ids.length; i += CHUNK) {
    await tx
      .updateTable('messages')
      .set({ edit_history: sql<string>`case when edit_history is null then ${'[' + json + ']'} else ${'[' + json + ','} || substr(edit_history, 2) end` })
      .where('id', 'in', ids.slice(i, i + CHUNK))
      .execute();
  }
}
