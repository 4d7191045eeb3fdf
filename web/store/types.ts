// The shapes the app keeps, as the API sends them (only the fields the app reads).
import type { Submessage } from '../lib/widgets.ts';
export interface Reaction {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
}

export interface DmRecipient {
  id: number;
  email: string;
  full_name: string;
}

export interface Message {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  avatar_url: string | null;
  timestamp: number;
  content: string;
  subject: string;
  type: 'stream' | 'private';
  stream_id?: number;
  display_recipient: string | DmRecipient[];
  reactions: Reaction[];
  /** Widget data (polls, todo lists), oldest first. */
  submessages?: Submessage[];
  flags: string[];
  last_edit_timestamp?: number;
  /** Newest first, when the organization lets people see it: what each edit or move changed. */
  edit_history?: EditHistoryEntry[];
  is_me_message?: boolean;
  /** Search narrows: the content and topic with matches marked. */
  match_content?: string;
  match_subject?: string;
}

export interface User {
  user_id: number;
  full_name: string;
  email: string;
  avatar_url: string | null;
  is_bot: boolean;
  is_active: boolean;
  role: number;
  /** ISO 8601; absent for users a client learned of without it. */
  date_joined?: string;
  /** IANA name, '' when the person has not set one. */
  timezone?: string;
  /** A bot's owner (absent for people and for the organization's own bots). */
  bot_owner_id?: number | null;
}

/** One entry of a message's edit history (only the fields the client reads). */
export interface EditHistoryEntry {
  timestamp: number;
  prev_content?: string;
  prev_topic?: string;
  prev_stream?: number;
}

export interface Subscription {
  stream_id: number;
  name: string;
  color: string;
  description: string;
  is_muted: boolean;
  pin_to_top: boolean;
  invite_only: boolean;
  /** Whether the stream had traffic lately (the server's estimate); demoted in the sidebar when not. */
  is_recently_active?: boolean;
  desktop_notifications?: boolean | null;
  audible_notifications?: boolean | null;
}

export interface Draft {
  id: number;
  type: 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

/** A message the server sends later (`scheduled_messages`); `to` is a stream ID or user IDs. */
export interface ScheduledMessage {
  scheduled_message_id: number;
  type: 'stream' | 'private';
  to: number | number[];
  topic?: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  /** The server tried to send it and could not (the stream went away, say). */
  failed: boolean;
}

/** A narrow in the API's form. */
export interface Term {
  operator: string;
  operand: string | number | number[];
  negated?: boolean;
}
export type Narrow = Term[];

