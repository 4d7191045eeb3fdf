import { directStatements, type Conn, type Tx } from '../database.ts';
import { encodeRecipients } from '../pending-user-messages.ts';
import type { Message } from '../schema.ts';

type Q = Conn | Tx;

// A send's statements run in its transaction; on SQLite through kept statements (directStatements).
export async function insertMessage(tx: Tx, values: Omit<Message, 'id'>): Promise<number> {
  const direct = directStatements(tx);
  if (direct) {
    const columns = Object.keys(values);
    const text = `insert into messages (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`;
    return direct.run(text, Object.values(values)).lastInsertRowid;
  }
  const row = await tx.insertInto('messages').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A new message's user_messages rows. SQLite stores them as one pending row, moved into
 * user_messages in batches before anyone reads them (pending-user-messages.ts).
 */
export async function insertUserMessages(tx: Tx, messageId: number, flagsByUser: Map<number, number>): Promise<void> {
  if (flagsByUser.size === 0) return;
  const direct = directStatements(tx);
  if (direct) {
    direct.run('insert into pending_user_messages (message_id, recipients) values (?, ?)', [messageId, encodeRecipients(flagsByUser)]);
    return;
  }
  const rows = [...flagsByUser].map(([user_id, flags]) => ({ user_id, message_id: messageId, flags }));
  for (let i = 0; i < rows.length; i += 500) {
    await tx.insertInto('user_messages').values(rows.slice(i, i + 500)).execute();
  }
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
