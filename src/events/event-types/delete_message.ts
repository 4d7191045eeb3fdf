// delete_message events: messages gone from the user's view (deleted, or moved out of reach).
// The bulk form has `message_ids`; clients without `bulk_message_deletion` get one event per
// message, with `message_id`.
import { defineEventType, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';
import { recountUnread, removeUnread, type UnreadMsgs } from '../apply/unread.ts';

function apply(state: State, event: BaseEvent): void {
  const ids = Array.isArray(event.message_ids) ? (event.message_ids as number[]) : typeof event.message_id === 'number' ? [event.message_id] : [];
  if (state.unread_msgs) removeUnread(state.unread_msgs as UnreadMsgs, ids);
  if (Array.isArray(state.starred_messages)) state.starred_messages = (state.starred_messages as number[]).filter((id) => !ids.includes(id));
  recountUnread(state);
}

export type DeleteMessageEvent =
  | { type: 'delete_message'; message_type: 'private'; message_ids: number[] }
  | { type: 'delete_message'; message_type: 'stream'; message_ids: number[]; stream_id: number; topic: string };

export const deleteMessageEventType = defineEventType<DeleteMessageEvent>({
  type: 'delete_message',
  forClient(event, client) {
    if (client.capabilities.bulk_message_deletion) return [event];
    return event.message_ids.map((id) => {
      const { message_ids: _ids, ...rest } = event;
      void _ids;
      return { ...rest, message_id: id };
    });
  },
  apply,
});
