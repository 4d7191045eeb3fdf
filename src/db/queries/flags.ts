// Changing per-user message flags (bits of user_messages.flags) in bulk.
import { sql } from 'kysely';
import type { Conn, Tx } from '../database.ts';
import { inChunks } from '../chunks.ts';

type Q = Conn | Tx;
const CHUNK = 500;

/** Sets or clears a flag bit on the user's rows among these messages; returns the IDs changed. */
export async function changeFlag(tx: Tx, userId: number, messageIds: readonly number[], bit: number, add: boolean): Promise<number[]> {
  const changed: number[] = [];
  for (let i = 0; i < messageIds.length; i += CHUNK) {
    const rows = await tx
      .updateTable('user_messages')
      .set({ flags: add ? sql`flags | ${bit}` : sql`flags & ${~bit}` })
      .where('user_id', '=', userId)
      .where('message_id', 'in', messageIds.slice(i, i + CHUNK))
      .where(sql<boolean>`(flags & ${bit}) ${add ? sql`=` : sql`<>`} 0`)
      .returning('message_id')
      .execute();
    changed.push(...rows.map((r) => r.message_id));
  }
  return changed.sort((a, b) => a - b);
}

/**
 * Rows for messages the user never received but may read (starring such a message). A concurrent
 * request may have added the same row since the caller looked: that row serves as well.
 */
export async function insertHistoricalRows(tx: Tx, userId: number, messageIds: readonly number[], flags: number): Promise<void> {
  await inChunks(messageIds, (part) =>
    tx
      .insertInto('user_messages')
      .values(part.map((message_id) => ({ user_id: userId, message_id, flags })))
      .onConflict((oc) => oc.columns(['user_id', 'message_id']).doNothing())
      .execute(),
  );
}

/** Which of these messages the user has a row for. */
export async function userMessageIds(db: Q, userId: number, messageIds: readonly number[]): Promise<number[]> {
  const rows = await inChunks(messageIds, (part) => db.selectFrom('user_messages').select('message_id').where('user_id', '=', userId).where('message_id', 'in', part).execute());
  return rows.map((r) => r.message_id);
}

/** The user's unread messages, optionally in one stream or topic, oldest first. */
export async function unreadMessageIds(db: Q, userId: number, opts: { streamId?: number; topic?: string; limit: number }): Promise<number[]> {
  let q = db
    .selectFrom('user_messages as um')
    .select('um.message_id')
    .where('um.user_id', '=', userId)
    .where(sql<boolean>`(um.flags & 1) = 0`);
  if (opts.streamId !== undefined) {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('messages as m')
          .select('m.id')
          .whereRef('m.id', '=', 'um.message_id')
          .where('m.stream_id', '=', opts.streamId!)
          .$if(opts.topic !== undefined, (qq) => qq.where(sql`lower(m.topic)`, '=', opts.topic!.toLowerCase())),
      ),
    );
  }
  const rows = await q.orderBy('um.message_id').limit(opts.limit).execute();
  return rows.map((r) => r.message_id);
}

export interface MessageDetailRow {
  id: number;
  stream_id: number | null;
  topic: string;
  recipient_id: number;
  dm_key: string | null;
  flags: number;
}

export async function messageDetails(db: Q, userId: number, messageIds: readonly number[]): Promise<MessageDetailRow[]> {
  const out: MessageDetailRow[] = [];
  for (let i = 0; i < messageIds.length; i += CHUNK) {
    const rows = await db
      .selectFrom('messages as m')
      .innerJoin('recipients as r', 'r.id', 'm.recipient_id')
      .innerJoin('user_messages as um', (j) => j.onRef('um.message_id', '=', 'm.id').on('um.user_id', '=', userId))
      .select(['m.id', 'm.stream_id', 'm.topic', 'm.recipient_id', 'r.dm_key', 'um.flags'])
      .where('m.id', 'in', messageIds.slice(i, i + CHUNK))
      .execute();
    out.push(...rows);
  }
  return out;
}
