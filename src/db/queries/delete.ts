// Permanent deletion of messages and of what hangs off them.
import { sql } from 'kysely';
import type { Tx } from '../database.ts';

const CHUNK = 500;

export async function deleteMessages(tx: Tx, ids: readonly number[]): Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) {
    const part = ids.slice(i, i + CHUNK);
    await tx.deleteFrom('user_messages').where('message_id', 'in', part).execute();
    await tx.deleteFrom('reactions').where('message_id', 'in', part).execute();
    await tx.deleteFrom('submessages').where('message_id', 'in', part).execute();
    // Uploaded files stay, released from these messages (their owners still reach them).
    await tx.deleteFrom('attachment_messages').where('message_id', 'in', part).execute();
    await tx.deleteFrom('messages').where('id', 'in', part).execute();
  }
}

/** The newest messages of a topic, for deletion in batches. */
export async function newestTopicMessages(tx: Tx, streamId: number, topic: string, limit: number, onlyUserId?: number) {
  return tx
    .selectFrom('messages as m')
    .selectAll('m')
    .where('m.stream_id', '=', streamId)
    .where(sql`lower(m.topic)`, '=', topic.toLowerCase())
    .$if(onlyUserId !== undefined, (q) =>
      q.where((eb) => eb.exists(eb.selectFrom('user_messages as um').select('um.message_id').whereRef('um.message_id', '=', 'm.id').where('um.user_id', '=', onlyUserId!))),
    )
    .orderBy('m.id', 'desc')
    .limit(limit)
    .execute();
}
