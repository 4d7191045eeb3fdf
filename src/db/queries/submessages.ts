// Submessages of messages (widget data), oldest first.
import type { Conn, Tx } from '../database.ts';
import { inChunks } from '../chunks.ts';

type Q = Conn | Tx;

export interface SubmessageRow {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

export async function submessagesOfMessages(db: Q, messageIds: readonly number[]): Promise<SubmessageRow[]> {
  const rows = await inChunks(messageIds, (part) => db.selectFrom('submessages').selectAll().where('message_id', 'in', part).execute());
  return rows.sort((a, b) => a.id - b.id);
}

/** The message's first submessage of a type (a widget's is written with the message). */
export async function firstSubmessage(db: Q, messageId: number, msgType: string): Promise<SubmessageRow | undefined> {
  return db.selectFrom('submessages').selectAll().where('message_id', '=', messageId).where('msg_type', '=', msgType).orderBy('id').limit(1).executeTakeFirst();
}

export async function hasSubmessageFrom(db: Q, messageId: number, senderId: number): Promise<boolean> {
  const row = await db.selectFrom('submessages').select('id').where('message_id', '=', messageId).where('sender_id', '=', senderId).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function hasSubmessages(db: Q, messageId: number): Promise<boolean> {
  const row = await db.selectFrom('submessages').select('id').where('message_id', '=', messageId).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function insertSubmessage(tx: Tx, row: Omit<SubmessageRow, 'id'>): Promise<number> {
  const r = await tx.insertInto('submessages').values(row).returning('id').executeTakeFirstOrThrow();
  return r.id;
}
