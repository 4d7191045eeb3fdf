// user_status events: a user's status (away, text, emoji) changed; only the changed fields come.
// The snapshot lists only set fields, and only users with any.
import type { EventFamily, State } from '../family.ts';
import type { BaseEvent } from '../types.ts';

function apply(state: State, event: BaseEvent): void {
  const all = state.user_status as Record<string, Record<string, unknown>> | undefined;
  if (!all || typeof event.user_id !== 'number') return;
  const key = String(event.user_id);
  const status = { ...all[key] };
  if (typeof event.away === 'boolean') {
    if (event.away) status.away = true;
    else delete status.away;
  }
  if (typeof event.status_text === 'string') {
    if (event.status_text) status.status_text = event.status_text;
    else delete status.status_text;
  }
  if (typeof event.emoji_name === 'string') {
    if (event.emoji_name) Object.assign(status, { emoji_name: event.emoji_name, emoji_code: event.emoji_code, reaction_type: event.reaction_type });
    else {
      delete status.emoji_name;
      delete status.emoji_code;
      delete status.reaction_type;
    }
  }
  if (Object.keys(status).length > 0) all[key] = status;
  else delete all[key];
}

export const userStatusFamily: EventFamily = { apply };
