// scheduled_messages events: the user's scheduled messages added, edited (or failed), and
// removed (deleted or sent). The snapshot lists the pending ones by delivery time.
import { pendingScheduledMessagesOf } from '../../db/queries/scheduled-messages.ts';
import { presentScheduledMessage, type ScheduledMessageJson } from '../../presenters/scheduled-message.ts';
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
  const gone = new Set([...changed.map((m) => m.scheduled_message_id), ...(e.op === 'remove' ? [e.scheduled_message_id] : [])]);
  const list = [...(state.scheduled_messages as ScheduledMessageJson[]).filter((m) => !gone.has(m.scheduled_message_id)), ...structuredClone(changed)];
  state.scheduled_messages = list.sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.scheduled_message_id - b.scheduled_message_id);
}

export const scheduledMessagesEventType = defineEventType<ScheduledMessagesEvent>({
  type: 'scheduled_messages',
  snapshot: { scheduled_messages: scheduledMessagesSnapshot },
  apply,
});
