// Emoji reactions on messages.
import type { Conn, Tx } from '../database.ts';
import type { ReactionRow } from './messages.ts';

type Q = Conn | Tx;

export async function reactionsOfMessages(db: Q, messageIds: readonly number[]): Promise<(ReactionRow & { id: number })[]> {
  if (messageIds.length === 0) return [];
  return db.selectFrom('reactions').selectAll().where('message_id', 'in', [...messageIds]).orderBy('id').execute();
}

export async function findReaction(db: Q, messageId: number, userId: number, reactionType: string, emojiCode: string) {
  return db
    .selectFrom('reactions')
    .selectAll()
    .where('message_id', '=', messageId)
    .where('user_id', '=', userId)
    .where('reaction_type', '=', reactionType)
    .where('emoji_code', '=', emojiCode)
    .executeTakeFirst();
}

/** Someone's reaction with this emoji, so that a new one can reuse its name. */
export async function anyReactionWithCode(db: Q, messageId: number, reactionType: string, emojiCode: string) {
  return db
    .selectFrom('reactions')
    .selectAll()
    .where('message_id', '=', messageId)
    .where('reaction_type', '=', reactionType)
    .where('emoji_code', '=', emojiCode)
    .orderBy('id')
    .executeTakeFirst();
}

export async function insertReaction(tx: Tx, row: ReactionRow): Promise<void> {
  await tx.insertInto('reactions').values(row).execute();
}

export async function deleteReaction(tx: Tx, id: number): Promise<void> {
  await tx.deleteFrom('reactions').where('id', '=', id).execute();
}
