// Loads what message JSON needs (senders, recipients, reactions) for many messages at once.
import type { Conn, Tx } from '../db/database.ts';
import type { Message, Realm, User } from '../db/schema.ts';
import { dmKeyUsers, recipientsByIds } from '../db/queries/recipients.ts';
import { streamsByIds } from '../db/queries/streams.ts';
import { usersByIds } from '../db/queries/users.ts';
import { reactionsOfMessages } from '../db/queries/reactions.ts';
import { submessagesOfMessages } from '../db/queries/submessages.ts';
import { topicLinks, type Linkifier } from './markdown/index.ts';
import { loadLinkifiers } from './message-render.ts';
import { realmSettings } from './realm.ts';

type Q = Conn | Tx;

export interface DisplayRecipientUser {
  id: number;
  email: string;
  full_name: string;
  is_mirror_dummy: boolean;
}

export interface ReactionJson {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
  user: { id: number; email: string; full_name: string; is_mirror_dummy: boolean };
}

export interface SubmessageJson {
  id: number;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

/** Everything a message's JSON depends on besides the message row itself. */
export interface MessageRelations {
  sender: User;
  realmSubdomain: string;
  realmUrl: string;
  /** Stream name for stream messages; the participants for direct messages. */
  displayRecipient: string | DisplayRecipientUser[];
  reactions: ReactionJson[];
  topicLinks: { text: string; url: string }[];
  submessages: SubmessageJson[];
  /** Whether the realm lets this viewer see edit history. */
  allowEditHistory: boolean;
}

export async function loadMessageRelations(db: Q, realm: Realm, realmUrl: string, messages: readonly Message[]): Promise<Map<number, MessageRelations>> {
  const recipients = await recipientsByIds(db, [...new Set(messages.map((m) => m.recipient_id))]);
  const userIds = new Set<number>(messages.map((m) => m.sender_id));
  for (const r of recipients.values()) if (r.dm_key) for (const id of dmKeyUsers(r.dm_key)) userIds.add(id);
  const reactionRows = await reactionsOfMessages(db, messages.map((m) => m.id));
  for (const r of reactionRows) userIds.add(r.user_id);
  const users = new Map((await usersByIds(db, realm.id, [...userIds])).map((u) => [u.id, u]));
  const reactions = new Map<number, ReactionJson[]>();
  for (const r of reactionRows) {
    const u = users.get(r.user_id);
    if (!u) continue;
    const list = reactions.get(r.message_id) ?? [];
    list.push({
      emoji_name: r.emoji_name,
      emoji_code: r.emoji_code,
      reaction_type: r.reaction_type,
      user_id: r.user_id,
      user: { id: u.id, email: u.email, full_name: u.full_name, is_mirror_dummy: false },
    });
    reactions.set(r.message_id, list);
  }
  const submessages = new Map<number, SubmessageJson[]>();
  for (const sm of await submessagesOfMessages(db, messages.map((m) => m.id))) {
    const list = submessages.get(sm.message_id) ?? [];
    list.push({ id: sm.id, message_id: sm.message_id, sender_id: sm.sender_id, msg_type: sm.msg_type, content: sm.content });
    submessages.set(sm.message_id, list);
  }
  const linkifiers = messages.some((m) => m.topic !== '') ? await loadLinkifiers(db, realm.id) : [];
  const linksByTopic = new Map<string, { text: string; url: string }[]>();
  const linksOf = (topic: string) => {
    let l = linksByTopic.get(topic);
    if (!l) {
      l = topic === '' || linkifiers.length === 0 ? [] : topicLinks(topic, linkifiers);
      linksByTopic.set(topic, l);
    }
    return l;
  };
  const streamIds = [...new Set(messages.flatMap((m) => (m.stream_id === null ? [] : [m.stream_id])))];
  const streams = new Map((await streamsByIds(db, realm.id, streamIds)).map((s) => [s.id, s]));
  const allowEditHistory = realmSettings(realm).allow_edit_history;

  const out = new Map<number, MessageRelations>();
  for (const m of messages) {
    let displayRecipient: string | DisplayRecipientUser[];
    if (m.stream_id !== null) {
      displayRecipient = streams.get(m.stream_id)?.name ?? '';
    } else {
      const ids = dmKeyUsers(recipients.get(m.recipient_id)?.dm_key ?? '');
      displayRecipient = ids.flatMap((id) => {
        const u = users.get(id);
        return u ? [displayUser(u)] : [];
      });
    }
    const rel: MessageRelations = {
      sender: users.get(m.sender_id)!,
      realmSubdomain: realm.subdomain,
      realmUrl,
      displayRecipient,
      reactions: reactions.get(m.id) ?? [],
      topicLinks: linksOf(m.topic),
      submessages: submessages.get(m.id) ?? [],
      allowEditHistory,
    };
    out.set(m.id, rel);
  }
  return out;
}

/**
 * The relations of a stream message its send has just written, from what the send has at hand
 * (the sender, the stream's name, the linkifiers its content was rendered with; no reactions or
 * submessages yet): what loadMessageRelations would read back, without its queries.
 */
export function newStreamMessageRelations(realm: Realm, realmUrl: string, message: Message, sender: User, streamName: string, linkifiers: readonly Linkifier[]): MessageRelations {
  return {
    sender,
    realmSubdomain: realm.subdomain,
    realmUrl,
    displayRecipient: streamName,
    reactions: [],
    topicLinks: message.topic === '' || linkifiers.length === 0 ? [] : topicLinks(message.topic, linkifiers),
    submessages: [],
    allowEditHistory: realmSettings(realm).allow_edit_history,
  };
}

export const displayUser = (u: User): DisplayRecipientUser => ({ id: u.id, email: u.email, full_name: u.full_name, is_mirror_dummy: false });
