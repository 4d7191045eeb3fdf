// Deleting messages for good: one message, or a whole topic in batches.
import type { AppContext } from '../../context.ts';
import type { Message, Realm, Stream, User } from '../../db/schema.ts';
import { deleteMessages, newestTopicMessages } from '../../db/queries/delete.ts';
import { isAdmin, may, requireAdmin } from '../../lib/permissions.ts';
import { badRequest } from '../../lib/errors.ts';
import { LIMITS } from '../../lib/limits.ts';
import { accessMessage } from '../../lib/message-access.ts';
import { messageAudience } from '../../lib/message-audience.ts';
import { realmSettings } from '../../lib/realm.ts';
import type { DeleteMessageEvent } from '../../events/event-types/delete_message.ts';
import { runAction, type ActionScope } from '../action.ts';

async function doDeleteMessages(scope: ActionScope, messages: Message[]): Promise<void> {
  if (messages.length === 0) return;
  const audience = await messageAudience(scope.tx, messages);
  const first = messages[0]!;
  const ids = messages.map((m) => m.id).sort((a, b) => a - b);
  await deleteMessages(scope.tx, ids);
  const event: DeleteMessageEvent =
    first.stream_id === null
      ? { type: 'delete_message', message_type: 'private', message_ids: ids }
      : { type: 'delete_message', message_type: 'stream', message_ids: ids, stream_id: first.stream_id, topic: first.topic };
  scope.emit(event, audience);
}

export async function checkDeleteMessage(app: AppContext, user: User, realm: Realm, messageId: number): Promise<void> {
  const { message } = await accessMessage(app.db.kysely, user, messageId);
  if (!isAdmin(user)) {
    // Senders may delete their own messages when the realm's policy and time limit allow.
    const settings = realmSettings(realm);
    const now = Math.floor(Date.now() / 1000);
    if (message.sender_id !== user.id || !may(user, 'deleteOwnMessage', settings, now)) {
      throw badRequest("You don't have permission to delete this message");
    }
    const limit = settings.message_content_delete_limit_seconds;
    if (limit !== null && now - message.date_sent > limit) throw badRequest('The time limit for deleting this message has passed');
  }
  await runAction(app, (scope) => doDeleteMessages(scope, [message]));
}

export interface DeleteTopicResult {
  complete: boolean;
}

/**
 * Deletes a topic's messages newest first, one transaction per batch, so that progress survives
 * a timeout; stops when the time budget is spent and says so.
 */
export async function checkDeleteTopic(
  app: AppContext,
  user: User,
  stream: Stream,
  topic: string,
  opts: { batchSize?: number; budgetMs?: number } = {},
): Promise<DeleteTopicResult> {
  requireAdmin(user);
  const batch = opts.batchSize ?? LIMITS.deleteTopicBatchSize;
  const deadline = Date.now() + (opts.budgetMs ?? LIMITS.deleteTopicBudgetSeconds * 1000);
  // In streams with protected history, administrators delete only what they can see.
  const onlyOwn = !stream.history_public_to_subscribers;
  for (;;) {
    const deleted = await runAction(app, async (scope) => {
      const rows = await newestTopicMessages(scope.tx, stream.id, topic, batch, onlyOwn ? user.id : undefined);
      await doDeleteMessages(scope, rows);
      return rows.length;
    });
    if (deleted < batch) return { complete: true };
    if (Date.now() >= deadline) return { complete: false };
  }
}
