// update_message_flags events: the user's flags on messages changed. `read` moves messages out
// of (or, with `message_details`, back into) the unread counts; `starred` changes the starred list.
import type { EventFamily, State } from '../family.ts';
import type { BaseEvent } from '../types.ts';
import type { UnreadMsgs } from './message.ts';
import { addSorted, recountUnread, removeUnread, sortBuckets } from './unread.ts';

type Detail =
  | { type: 'stream'; mentioned?: boolean; stream_id: number; topic: string; unmuted_stream_msg?: boolean }
  | { type: 'private'; mentioned?: boolean; user_ids: number[] };

function markUnread(unread: UnreadMsgs, details: Record<string, Detail>, userId: number): void {
  for (const [key, d] of Object.entries(details)) {
    const id = Number(key);
    if ([...unread.streams, ...unread.pms, ...unread.huddles].some((b) => b.unread_message_ids.includes(id))) continue;
    unread.count += 1;
    if (d.mentioned) addSorted(unread.mentions, id);
    if (d.type === 'stream') {
      let b = unread.streams.find((s) => s.stream_id === d.stream_id && s.topic === d.topic);
      if (!b) unread.streams.push((b = { stream_id: d.stream_id, topic: d.topic, unread_message_ids: [] }));
      addSorted(b.unread_message_ids, id);
    } else if (d.user_ids.length <= 1) {
      const other = d.user_ids[0] ?? userId;
      let b = unread.pms.find((s) => s.other_user_id === other);
      if (!b) unread.pms.push((b = { other_user_id: other, sender_id: other, unread_message_ids: [] }));
      addSorted(b.unread_message_ids, id);
    } else {
      const key = [...d.user_ids, userId].sort((a, b) => a - b).join(',');
      let b = unread.huddles.find((s) => s.user_ids_string === key);
      if (!b) unread.huddles.push((b = { user_ids_string: key, unread_message_ids: [] }));
      addSorted(b.unread_message_ids, id);
    }
  }
  sortBuckets(unread);
}

export const updateMessageFlagsFamily: EventFamily = {
  apply(state: State, event: BaseEvent, client) {
    const ids = (event.messages ?? []) as number[];
    if (event.flag === 'read' && state.unread_msgs) {
      const unread = state.unread_msgs as UnreadMsgs;
      if (event.op === 'add') removeUnread(unread, ids);
      else if (event.message_details) markUnread(unread, event.message_details as Record<string, Detail>, client.userId);
    }
    if (event.flag === 'starred' && Array.isArray(state.starred_messages)) {
      const starred = new Set(state.starred_messages as number[]);
      for (const id of ids) {
        if (event.op === 'add') starred.add(id);
        else starred.delete(id);
      }
      state.starred_messages = [...starred].sort((a, b) => a - b);
    }
    recountUnread(state);
  },
};
