// scheduled_messages events: the user's scheduled messages added, edited (or failed), and
// removed (deleted or sent). The snapshot lists the pending ones by delivery time.
import { pendingScheduledMessagesOf } from '../../db/queries/scheduled-messages.ts';
import { presentScheduledMessage, type ScheduledMessageJson } from '../../presenters/scheduled-message.ts';
import { upsertSorted } from '../apply/list.ts';
import { defineEventType, type SnapshotGroup, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';

export type ScheduledMessagesEvent =
  | { type: 'scheduled_messages'; op: 'add'; scheduled_messages: ScheduledMessageJson[] }
  | { type: 'scheduled_messages'; op: 'update'; scheduled_message: ScheduledMessageJson }
  | { type: 'scheduled_messages'; op: 'remove'; scheduled_message_id: number };

export const scheduledMessagesSnapshot: SnapshotGroup = async ({ app, user }) => ({
  scheduled_messages: user ? (await pendingScheduledMessagesOf(app.db.kysely, user.id)).map(presentScheduledMessage) : [],
});

function apply(state: State, event: BaseEvent): void {
  if (!Array.isArray(state.scheduled_messages)) return;
  const e = event as unknown as ScheduledMessagesEvent;
  const changed = e.op === 'add' ? e.scheduled_messages : e.op === 'update' ? [e.scheduled_message] : [];
  const byDelivery = (a: ScheduledMessageJson, b: ScheduledMessageJson): number =>
    a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.scheduled_message_id - b.scheduled_message_id;
  const gone = e.op === 'remove' ? [e.scheduled_message_id] : [];
  state.scheduled_messages = upsertSorted(state.scheduled_messages as ScheduledMessageJson[], (m) => m.scheduled_message_id, changed, gone, byDelivery);
}

export const scheduledMessagesEventType = defineEventType<ScheduledMessagesEvent>({
  type: 'scheduled_messages',
  snapshot: { scheduled_messages: scheduledMessagesSnapshot },
  apply,
});
