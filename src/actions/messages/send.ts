// Sending a message to a stream topic or to a set of users.
import type { AppContext } from '../../context.ts';
import type { Message, Realm, Stream, User } from '../../db/schema.ts';
import { insertMessage, setStreamFirstMessage } from '../../db/queries/messages.ts';
import { dmRecipient } from '../../db/queries/recipients.ts';
import { activeSubscriberIds, keptSubscription } from '../../db/queries/streams.ts';
import { canSeeStream, usersWhoCanSeeStream } from '../../lib/access.ts';
import { canPostToStream } from '../../lib/permissions.ts';
import { ApiError, badRequest } from '../../lib/errors.ts';
import { FLAG_BITS, flagNames } from '../../db/flags.ts';
import { LIMITS } from '../../lib/limits.ts';
import { loadMessageRelations, newStreamMessageRelations } from '../../lib/messages.ts';
import { renderMessage } from '../../lib/message-render.ts';
import { topicParticipantIds } from '../../db/queries/render-refs.ts';
import { claimAttachments, emitAttachmentUpdates } from '../uploads.ts';
import { realmSettings, realmUrl } from '../../lib/realm.ts';
import { checkTopic, hasBadCharacters } from '../../lib/validate.ts';
import { presentMessage } from '../../presenters/message.ts';
import { runGroupedAction, type ActionScope } from '../action.ts';
import type { MessageEvent } from '../../events/event-types/message.ts';
import { usersWhoMuted } from '../../db/queries/muted-users.ts';
import { queueLinkPreviews } from '../link-previews.ts';
import { addWidgetOnSend } from './submessages.ts';

export type Addressee = { type: 'stream'; stream: Stream; topic: string } | { type: 'private'; users: User[] };

export interface SendInput {
  addressee: Addressee;
  content: string;
  client?: string;
  /** For the sender's own event: lets that client match the message to its local echo. */
  senderQueueId?: string | undefined;
  localId?: string | undefined;
  readBySender?: boolean | undefined;
  /** Send time, for scheduled messages delivered late; defaults to now. */
  sentAt?: number;
  /** Sent by the server itself (notices): no posting permission checks. */
  internal?: boolean;
  /**
   * Runs inside the send's transaction once the message row exists; throwing rolls the send
   * back. Scheduled delivery marks its row delivered here, so a message cannot be sent twice.
   */
  inTransaction?: (scope: ActionScope, messageId: number) => Promise<void>;
}

export function checkContent(content: string): string {
  const c = content.replace(/\s+$/, '');
  if (c.trim().length === 0) throw badRequest('Message must not be empty');
  if (c.length > LIMITS.maxMessageLength) throw badRequest(`Message too long (limit: ${LIMITS.maxMessageLength} characters)`);
  if (c.includes('\u0000')) throw badRequest('Message must not contain null bytes');
  return c;
}

export function checkStreamTopic(realm: Realm, topic: string | undefined): string {
  const t = checkTopic(topic ?? '');
  if (t === '') {
    if (realmSettings(realm).mandatory_topics) throw badRequest('Topics are required in this organization');
    return '(no topic)';
  }
  return t;
}

/** Whether the sender may post to this stream; throws the reference's error if not. */
export async function checkCanPost(app: AppContext, sender: User, realm: Realm, stream: Stream, now: number): Promise<void> {
  const sub = await keptSubscription(app.db, sender.id, stream.id);
  // Private streams take messages from their subscribers only.
  if (!canSeeStream(sender, stream, sub) || (stream.invite_only && !sub?.active)) {
    throw new ApiError(`Not authorized to send to stream '${stream.name}'`, 'BAD_REQUEST');
  }
  if (!canPostToStream(sender, stream.stream_post_policy, realmSettings(realm).waiting_period_threshold, now)) {
    throw badRequest('You do not have permission to post in this stream.');
  }
}

/**
 * The realm's private_message_policy: with direct messages disabled (2), a bot may still send
 * them, and a person may write to one bot alone (the reference's rule).
 */
export function checkDirectMessagePolicy(realm: Realm, sender: User, recipients: User[]): void {
  if (realmSettings(realm).private_message_policy !== 2 || sender.is_bot) return;
  const others = recipients.filter((u) => u.id !== sender.id);
  if (others.length === 1 && others[0]!.is_bot) return;
  throw badRequest('Direct messages are disabled in this organization.');
}

export async function checkSendMessage(app: AppContext, sender: User, realm: Realm, input: SendInput): Promise<number> {
  const content = checkContent(input.content);
  if (hasBadCharacters(content.replace(/\r/g, ''))) throw badRequest('Message contains invalid characters');
  const now = input.sentAt ?? Math.floor(Date.now() / 1000);
  const a = input.addressee;
  if (a.type === 'stream') {
    if (!input.internal) await checkCanPost(app, sender, realm, a.stream, now);
  } else if (a.users.some((u) => !u.is_active)) {
    const gone = a.users.find((u) => !u.is_active)!;
    throw badRequest(`'${gone.email}' is no longer using Parley.`);
  } else if (!input.internal) {
    checkDirectMessagePolicy(realm, sender, a.users);
  }
  const url = realmUrl(app.config, realm);
  const { result: rendered, mentionedUserIds: mentioned, linkifiers } = await renderMessage(app.db.kysely, realm, url, content, sender, { imageProxyKey: app.imageProxyKey });

  // Concurrent sends share a transaction and its commit (runGroupedAction): this function may
  // run again when a send grouped with it fails, so it changes nothing but the database and
  // its events.
  const messageId = await runGroupedAction(app, async (scope) => {
    let recipientId: number;
    let receivers: readonly number[];
    if (a.type === 'stream') {
      recipientId = a.stream.recipient_id!;
      receivers = await activeSubscriberIds(app.db, scope.tx, a.stream.id);
    } else {
      const ids = [...new Set([sender.id, ...a.users.map((u) => u.id)])];
      recipientId = (await dmRecipient(scope.tx, realm.id, ids)).id;
      receivers = ids;
    }
    const row: Omit<Message, 'id'> = {
      realm_id: realm.id,
      sender_id: sender.id,
      recipient_id: recipientId,
      stream_id: a.type === 'stream' ? a.stream.id : null,
      topic: a.type === 'stream' ? a.topic : '',
      content,
      rendered_content: rendered.html,
      rendered_content_version: 1,
      date_sent: now,
      last_edit_time: null,
      edit_history: null,
      client: input.client ?? 'API',
      is_me_message: rendered.isMeMessage ? 1 : 0,
      has_link: rendered.links.length > 0 ? 1 : 0,
      has_attachment: rendered.uploadPaths.length > 0 ? 1 : 0,
      has_image: rendered.hasImage ? 1 : 0,
    };
    // A topic wildcard mention reaches those who took part in the topic, this message's sender included.
    const topicAudience = rendered.wildcard === 'topic' && a.type === 'stream' ? new Set([...(await topicParticipantIds(scope.tx, a.stream.id, a.topic)), sender.id]) : null;
    // Muted users: receivers who muted the sender get the message already read.
    const mutedBy = await usersWhoMuted(scope.tx, sender.id);
    const flagsByUser = new Map<number, number>();
    for (const userId of new Set([...receivers, sender.id])) {
      let flags = 0;
      if (userId === sender.id && input.readBySender !== false) flags |= FLAG_BITS.read;
      if (mutedBy.has(userId)) flags |= FLAG_BITS.read;
      if (mentioned.has(userId)) flags |= FLAG_BITS.mentioned;
      if (rendered.wildcard === 'stream') flags |= FLAG_BITS.stream_wildcard_mentioned;
      if (rendered.wildcard === 'topic' && (topicAudience === null || topicAudience.has(userId))) flags |= FLAG_BITS.topic_wildcard_mentioned;
      flagsByUser.set(userId, flags);
    }
    const id = await insertMessage(scope.tx, row, flagsByUser);
    const widget = await addWidgetOnSend(scope.tx, { id, sender_id: sender.id, content });
    // A stream that had messages when the request began has its first one already.
    if (a.type === 'stream' && a.stream.first_message_id === null && (await setStreamFirstMessage(scope.tx, a.stream.id, id))) {
      scope.emit(
        { type: 'stream', op: 'update', property: 'first_message_id', value: id, stream_id: a.stream.id, name: a.stream.name },
        await usersWhoCanSeeStream(scope.tx, a.stream),
      );
    }
    await emitAttachmentUpdates(scope, realm.id, await claimAttachments(scope.tx, { id, realm_id: realm.id, sender_id: sender.id }, rendered.uploadPaths));

    if (input.inTransaction) await input.inTransaction(scope, id);

    // One event per distinct set of flags: the message is the same, the flags are the receiver's.
    const message: Message = { id, ...row };
    // A stream message without a widget has no relations but its sender, stream and topic links.
    const rel =
      a.type === 'stream' && !widget
        ? newStreamMessageRelations(realm, url, message, sender, a.stream.name, linkifiers)
        : (await loadMessageRelations(scope.tx, realm, url, [message])).get(id)!;
    const json = presentMessage(message, rel, { applyMarkdown: true, clientExternalAvatar: false });
    const byFlags = new Map<number, number[]>();
    for (const [userId, flags] of flagsByUser) {
      const list = byFlags.get(flags) ?? [];
      list.push(userId);
      byFlags.set(flags, list);
    }
    // Stream receivers are active subscribers and direct recipients were checked above; a
    // deactivated sender (a scheduled message outliving its author) gets no event.
    const activeReceivers = new Set(flagsByUser.keys());
    if (!sender.is_active) activeReceivers.delete(sender.id);
    for (const [flags, userIds] of byFlags) {
      scope.emit(
        {
          type: 'message',
          message: json,
          flags: flagNames(flags),
          raw_content: content,
          sender_queue_id: input.senderQueueId,
          local_message_id: input.localId,
          sender_avatar_external: sender.avatar_source !== 'U',
          realm_id: realm.id,
          public_stream: a.type === 'stream' && !a.stream.invite_only,
        } satisfies MessageEvent,
        userIds.filter((u) => activeReceivers.has(u)),
      );
    }
    return id;
  });
  // Website previews come later, by an update of the message (the send is answered now).
  queueLinkPreviews(app, { messageId, content, urls: rendered.linksForPreview });
  return messageId;
}

