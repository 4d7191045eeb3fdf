// A user's status (away, text, emoji) as the API shows it, and what a user_status event does to
// it. Shared as is by the server's register state (src/events/event-types/user_status.ts) and the
// web client's store (web/store/settings-admin.ts, bundled by Vite): so this module imports nothing.

/** Only the fields that are set. */
export interface UserStatus {
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

/** A user_status event, as either side holds it (only the changed fields come). */
export type UserStatusChange = Readonly<Record<string, unknown>>;

/** A new status: `status` with the event's fields; an empty text or emoji name clears it, `away: false` clears away. */
export function changedUserStatus(status: UserStatus | undefined, e: UserStatusChange): UserStatus {
  const next: UserStatus = { ...status };
  if (typeof e.away === 'boolean') {
    if (e.away) next.away = true;
    else delete next.away;
  }
  if (typeof e.status_text === 'string') {
    if (e.status_text) next.status_text = e.status_text;
    else delete next.status_text;
  }
  if (typeof e.emoji_name === 'string') {
    if (e.emoji_name) Object.assign(next, { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type });
    else {
      delete next.emoji_name;
      delete next.emoji_code;
      delete next.reaction_type;
    }
  }
  return next;
}

/** Whether a status has anything set (one without is left out of the register state). */
export const hasUserStatus = (status: UserStatus): boolean => Object.keys(status).length > 0;
