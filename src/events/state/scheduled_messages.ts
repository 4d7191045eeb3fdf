// Register snapshot group `scheduled_messages`.
import { pendingScheduledMessagesOf } from '../../db/queries/scheduled-messages.ts';
import { presentScheduledMessage } from '../../presenters/scheduled-message.ts';
import type { SnapshotGroup } from './types.ts';

export const scheduledMessagesSnapshot: SnapshotGroup = async ({ app, user }) => ({
  scheduled_messages: user ? (await pendingScheduledMessagesOf(app.db.kysely, user.id)).map(presentScheduledMessage) : [],
});
