// delete_message events: messages gone from the user's view (deleted, or moved out of reach).
// The bulk form has `message_ids`; clients without `bulk_message_deletion` get one event per
// message (legacy.ts).
import type { EventFamily, State } from '../family.ts';
import type { BaseEvent } from '../types.ts';
import { deleteMessageFamily as legacyForm } from './legacy.ts';
import type { UnreadMsgs } from './message.ts';
import { recountUnread, removeUnread } from './unread.ts';

function apply(state: State, event: BaseEvent): void {
  const ids = Array.isArray(event.message_ids) ? (event.message_ids as number[]) : typeof event.message_id === 'number' ? [event.message_id] : [];
  if (state.unread_msgs) removeUnread(state.unread_msgs as UnreadMsgs, ids);
  if (Array.isArray(state.starred_messages)) state.starred_messages = (state.starred_messages as number[]).filter((id) => !ids.includes(id));
  recountUnread(state);
}

export const deleteMessageFamily: EventFamily = { ...legacyForm, apply };
