// A user's status as the API shows it: only the fields that are set.
import type { UserStatusRow } from '../db/queries/presence.ts';

export interface UserStatusJson {
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

/** `away` is sent for users who hide their presence (it mirrors presence_enabled). */
export function presentUserStatus(row: UserStatusRow | undefined, away: boolean): UserStatusJson {
  const json: UserStatusJson = {};
  if (away) json.away = true;
  if (row?.status_text) json.status_text = row.status_text;
  if (row?.emoji_name) {
    json.emoji_name = row.emoji_name;
    json.emoji_code = row.emoji_code;
    json.reaction_type = row.reaction_type;
  }
  return json;
}
