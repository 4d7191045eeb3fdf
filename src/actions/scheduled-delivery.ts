// Delivering scheduled messages that are due: each is sent as its author exactly once. A process
// first claims a row in the database (so several processes can run this side by side), then
// sends the message and marks the row delivered in the same transaction. A claim left behind
// by a crashed process expires and the row is picked up again; since "delivered" is committed
// with the message, it can never be sent twice.
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { ScheduledMessage, User } from '../db/schema.ts';
import {
  claimScheduledMessage,
  dueScheduledMessages,
  markScheduledMessageDelivered,
  markScheduledMessageFailed,
} from '../db/queries/scheduled-messages.ts';
import { realmById } from '../db/queries/realms.ts';
import { streamById } from '../db/queries/streams.ts';
import { userById, usersByIds } from '../db/queries/users.ts';
import { ApiError } from '../lib/errors.ts';
import { LIMITS } from '../lib/limits.ts';
import { presentScheduledMessage } from '../presenters/scheduled-message.ts';
import { runAction } from './action.ts';
import { checkSendMessage, type Addressee } from './messages/send.ts';

/** The claim was lost (edited, cancelled or delivered elsewhere): the send rolls back. */
class ClaimLost extends Error {}

/** Delivers every due message this process can claim; returns how many it delivered. */
export async function deliverDueScheduledMessages(app: AppContext): Promise<number> {
  let delivered = 0;
  for (;;) {
    const now = Math.floor(Date.now() / 1000);
    const due = await dueScheduledMessages(app.db.kysely, now, 50);
    if (due.length === 0) return delivered;
    let claimedAny = false;
    for (const row of due) {
      const token = randomUUID();
      if (!(await claimScheduledMessage(app.db.kysely, row.id, token, now, now + LIMITS.scheduledDeliveryClaimSeconds))) continue;
      claimedAny = true;
      if (await deliverOne(app, row, token)) delivered++;
    }
    if (!claimedAny) return delivered;
  }
}

async function deliverOne(app: AppContext, row: ScheduledMessage, token: string): Promise<boolean> {
  try {
    const realm = await realmById(app.db.kysely, row.realm_id);
    const sender = await userById(app.db.kysely, row.realm_id, row.sender_id);
    if (!realm || realm.deactivated || !sender || !sender.is_active) throw new ApiError('The sender can no longer send messages.');
    const addressee = await addresseeOf(app, row, sender);
    await checkSendMessage(app, sender, realm, {
      addressee,
      content: row.content,
      client: 'API',
      readBySender: row.read_by_sender === null ? undefined : row.read_by_sender === 1,
      inTransaction: async (scope, messageId) => {
        if (!(await markScheduledMessageDelivered(scope.tx, row.id, token, messageId))) throw new ClaimLost();
        scope.emit({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: row.id }, [row.sender_id]);
      },
    });
    return true;
  } catch (err) {
    if (err instanceof ClaimLost) return false;
    if (err instanceof ApiError) {
      // The message cannot be sent as it stands (stream gone, no permission, ...): the sender
      // sees it as failed and may edit and reschedule it.
      await runAction(app, async (scope) => {
        const failed = await markScheduledMessageFailed(scope.tx, row.id, token, err.message);
        if (failed) scope.emit({ type: 'scheduled_messages', op: 'update', scheduled_message: presentScheduledMessage(failed) }, [row.sender_id]);
      });
      app.log.info({ scheduledMessageId: row.id, reason: err.message }, 'scheduled message could not be sent');
      return false;
    }
    // Anything else (the database went away, ...) is retried once the claim expires.
    app.log.error({ err, scheduledMessageId: row.id }, 'scheduled message delivery failed; will retry');
    return false;
  }
}

async function addresseeOf(app: AppContext, row: ScheduledMessage, sender: User): Promise<Addressee> {
  if (row.type === 'stream') {
    const stream = row.stream_id === null ? undefined : await streamById(app.db.kysely, row.realm_id, row.stream_id);
    if (!stream || stream.deactivated) throw new ApiError('The stream no longer exists.');
    return { type: 'stream', stream, topic: row.topic };
  }
  const ids = JSON.parse(row.to_user_ids ?? '[]') as number[];
  const users = await usersByIds(app.db.kysely, sender.realm_id, ids);
  if (users.length !== ids.length) throw new ApiError('A recipient no longer exists.');
  return { type: 'private', users };
}
