// The Message object of the API, for GET /messages and for message events.
import type { Message } from '../db/schema.ts';
import { avatarUrl } from '../lib/avatar.ts';
import { flagNames } from '../db/flags.ts';
import type { DisplayRecipientUser, MessageRelations, ReactionJson, SubmessageJson } from '../lib/messages.ts';

export interface MessageJson {
  id: number;
  type: 'stream' | 'private';
  content: string;
  content_type: 'text/html' | 'text/x-markdown';
  subject: string;
  topic_links: { text: string; url: string }[];
  stream_id?: number;
  display_recipient: string | DisplayRecipientUser[];
  recipient_id: number;
  sender_id: number;
  sender_email: string;
  sender_full_name: string;
  sender_realm_str: string;
  avatar_url: string | null;
  client: string;
  timestamp: number;
  is_me_message: boolean;
  last_edit_timestamp?: number;
  edit_history?: unknown[];
  reactions: ReactionJson[];
  submessages: SubmessageJson[];
  flags?: string[];
  match_content?: string;
  match_subject?: string;
}

export interface MessagePresentOptions {
  applyMarkdown: boolean;
  clientExternalAvatar: boolean;
}

export function presentMessage(m: Message, rel: MessageRelations, opts: MessagePresentOptions, flags?: number): MessageJson {
  const json: MessageJson = {
    id: m.id,
    type: m.stream_id === null ? 'private' : 'stream',
    content: opts.applyMarkdown ? m.rendered_content : m.content,
    content_type: opts.applyMarkdown ? 'text/html' : 'text/x-markdown',
    subject: m.topic,
    topic_links: rel.topicLinks,
    display_recipient: rel.displayRecipient,
    recipient_id: m.recipient_id,
    sender_id: m.sender_id,
    sender_email: rel.sender.email,
    sender_full_name: rel.sender.full_name,
    sender_realm_str: rel.realmSubdomain,
    avatar_url: avatarUrl(rel.sender, opts.clientExternalAvatar, rel.realmUrl),
    client: m.client,
    timestamp: m.date_sent,
    is_me_message: m.is_me_message === 1,
    reactions: rel.reactions,
    submessages: rel.submessages,
  };
  if (m.stream_id !== null) json.stream_id = m.stream_id;
  if (m.last_edit_time !== null) {
    json.last_edit_timestamp = m.last_edit_time;
    if (rel.allowEditHistory && m.edit_history) json.edit_history = JSON.parse(m.edit_history) as unknown[];
  }
  if (flags !== undefined) json.flags = flagNames(flags);
  return json;
}
