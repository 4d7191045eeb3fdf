// Editing a message: its content, its topic (resolving included) and moving it, alone or with
// the rest of its topic, to another topic or stream.
import type { AppContext } from '../../context.ts';
import type { Message, Realm, Stream, User } from '../../db/schema.ts';
import {
  deleteUserMessageRows,
  holdersOfAny,
  insertUserMessageRows,
  lockMessage,
  messageHolders,
  moveMessages,
  prependEditHistory,
  setMentionBits,
  topicMessages,
  updateMessage,
} from '../../db/queries/edit.ts';
import { hasSubmessages } from '../../db/queries/submessages.ts';
import { messagesByIdsInAnyRealm } from '../../db/queries/messages.ts';
import { unlinkAttachments } from '../../db/queries/render-refs.ts';
import { claimAttachments, emitAttachmentUpdates } from '../uploads.ts';
import { streamById, subscriberIds, subscription } from '../../db/queries/streams.ts';
import { canReadStreamMessages } from '../../lib/access.ts';
import { badRequest, moveTimeLimitExceeded } from '../../lib/errors.ts';
import { FLAG_BITS, flagNames } from '../../db/flags.ts';
import { isModerator, may } from '../../lib/permissions.ts';
import { accessMessage } from '../../lib/message-access.ts';
import { messageAudience } from '../../lib/message-audience.ts';
import { messageTopicLinks, renderMessage } from '../../lib/message-render.ts';
import { realmSettings, realmUrl } from '../../lib/realm.ts';
import { checkTopic } from '../../lib/validate.ts';
import type { UpdateMessageEvent } from '../../events/event-types/update_message.ts';
import { runAction } from '../action.ts';
import { queueLinkPreviews } from '../link-previews.ts';
import { sendMoveNotices } from './notices.ts';
import { checkContent } from './send.ts';

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export interface EditInput {
  content?: string | undefined;
  topic?: string | undefined;
  streamId?: number | undefined;
  propagateMode: PropagateMode;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
}

/** Seconds of grace after a limit, for the time a client takes to submit an edit. */
const EDIT_GRACE_SECONDS = 20;
const RESOLVED_PREFIX = '\u2714 ';

const noPermission = () => badRequest("You don't have permission to edit this message");

const unresolved = (topic: string): string => (topic.startsWith(RESOLVED_PREFIX) ? topic.slice(RESOLVED_PREFIX.length) : topic);

interface EditHistoryEntry {
  user_id: number;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_rendered_content_version?: number;
  prev_topic?: string;
  topic?: string;
  prev_stream?: number;
  stream?: number;
}

const withHistory = (m: Message, entry: EditHistoryEntry): string => JSON.stringify([entry, ...(m.edit_history ? (JSON.parse(m.edit_history) as unknown[]) : [])]);

export async function checkEditMessage(app: AppContext, user: User, realm: Realm, messageId: number, input: EditInput): Promise<void> {
  const db = app.db.kysely;
  const settings = realmSettings(realm);
  const now = Math.floor(Date.now() / 1000);
  const { message, stream: oldStream } = await accessMessage(db, user, messageId);

  if (input.content !== undefined && input.streamId !== undefined) throw badRequest('Cannot change message content while changing stream');
  if (message.stream_id === null && (input.topic !== undefined || input.streamId !== undefined)) {
    throw badRequest(input.streamId !== undefined ? 'Direct messages cannot be moved to streams.' : 'Direct messages cannot have topics.');
  }
  const newTopic = input.topic === undefined ? undefined : checkTopic(input.topic) || '(no topic)';
  if (input.topic !== undefined && newTopic === '(no topic)' && settings.mandatory_topics) throw badRequest('Topics are required in this organization');
  const topicChanged = newTopic !== undefined && newTopic !== message.topic;
  const streamChanged = input.streamId !== undefined && input.streamId !== message.stream_id;
  if (input.content === undefined && !topicChanged && !streamChanged) {
    if (input.topic === undefined && input.streamId === undefined) throw badRequest('Nothing to change');
  }
  if (input.propagateMode !== 'change_one' && newTopic === undefined && input.streamId === undefined) {
    throw badRequest('Invalid propagate_mode without topic edit');
  }
  const exempt = isModerator(user);

  // Content: the sender only, while the realm allows editing and within its time limit.
  let content: string | undefined;
  if (input.content !== undefined) {
    content = checkContent(input.content);
    if (!settings.allow_message_editing) throw badRequest('Your organization has turned off message editing');
    if (message.sender_id !== user.id) throw noPermission();
    // A widget's state lives in its submessages, which an edit of the text would not follow.
    if (await hasSubmessages(db, message.id)) throw badRequest('Widgets cannot be edited.');
    const limit = settings.message_content_edit_limit_seconds;
    if (limit !== null && limit > 0 && now - message.date_sent > limit + EDIT_GRACE_SECONDS) {
      throw badRequest('The time limit for editing this message has passed');
    }
  }

  let newStream: Stream | undefined;
  if (topicChanged && !streamChanged) {
    if (!may(user, 'editTopic', settings, now)) throw noPermission();
  }
  if (streamChanged) {
    if (!may(user, 'moveBetweenStreams', settings, now)) {
      throw badRequest("You don't have permission to move this message");
    }
    newStream = await streamById(db, realm.id, input.streamId!);
    const sub = newStream ? await subscription(db, user.id, newStream.id) : undefined;
    if (!newStream || !canReadStreamMessages(user, newStream, sub)) throw badRequest('Invalid stream ID');
    if (topicChanged && !may(user, 'editTopic', settings, now)) throw noPermission();
  }

  // The messages to change: in streams with protected history, only those the caller has.
  let targets: Message[] = [message];
  if ((topicChanged || streamChanged) && input.propagateMode !== 'change_one' && oldStream) {
    const onlyUserId = oldStream.history_public_to_subscribers ? undefined : user.id;
    targets = await topicMessages(db, oldStream.id, message.topic, { fromId: input.propagateMode === 'change_later' ? message.id : undefined, onlyUserId });
    if (!targets.some((m) => m.id === message.id)) targets.push(message);
  }

  if ((topicChanged || streamChanged) && !exempt) {
    const limit = streamChanged ? settings.move_messages_between_streams_limit_seconds : settings.move_messages_within_stream_limit_seconds;
    if (limit !== null && limit > 0) {
      const tooOld = (m: Message) => now - m.date_sent > limit + EDIT_GRACE_SECONDS;
      if (input.propagateMode !== 'change_all' && tooOld(message)) {
        throw badRequest(streamChanged ? "The time limit for editing this message's stream has passed" : "The time limit for editing this message's topic has passed");
      }
      const allowed = targets.filter((m) => !tooOld(m));
      if (allowed.length < targets.length) {
        throw moveTimeLimitExceeded({
          first_message_id_allowed_to_move: allowed[0]?.id ?? null,
          total_messages_in_topic: targets.length,
          total_messages_allowed_to_move: allowed.length,
        });
      }
    }
  }

  const url = realmUrl(app.config, realm);
  const rendered = content === undefined ? undefined : await renderMessage(db, realm, url, content, user, { imageProxyKey: app.imageProxyKey });
  const finalTopic = newTopic ?? message.topic;
  const finalStream = newStream ?? oldStream;

  await runAction(app, async (scope) => {
    const ids = targets.map((m) => m.id).sort((a, b) => a - b);
    const oldAudience = await messageAudience(scope.tx, targets);
    const event: UpdateMessageEvent = {
      type: 'update_message',
      user_id: user.id,
      edit_timestamp: scope.now,
      message_id: message.id,
      message_ids: ids,
      rendering_only: false,
    };
    if (oldStream) Object.assign(event, { stream_name: oldStream.name, stream_id: oldStream.id });

    if (content !== undefined && rendered) {
      const r = rendered.result;
      // The content and history as they are now: another edit may have committed since the checks.
      const current = (await lockMessage(scope.tx, message.id, app.db.dialect)) ?? message;
      const entry: EditHistoryEntry = {
        user_id: user.id,
        timestamp: scope.now,
        prev_content: current.content,
        prev_rendered_content: current.rendered_content,
        prev_rendered_content_version: current.rendered_content_version,
      };
      if (topicChanged) Object.assign(entry, { prev_topic: message.topic, topic: finalTopic });
      await updateMessage(scope.tx, message.id, {
        content,
        rendered_content: r.html,
        is_me_message: r.isMeMessage ? 1 : 0,
        has_link: r.links.length > 0 ? 1 : 0,
        has_attachment: r.uploadPaths.length > 0 ? 1 : 0,
        has_image: r.hasImage ? 1 : 0,
        last_edit_time: scope.now,
        edit_history: withHistory(current, entry),
        topic: finalTopic,
      });
      // The edited content decides which uploads the message links.
      await unlinkAttachments(scope.tx, message.id);
      await emitAttachmentUpdates(scope, message.realm_id, await claimAttachments(scope.tx, message, r.uploadPaths));
      // Mentions follow the new content.
      const holders = [...(await messageHolders(scope.tx, message.id)).keys()];
      const mask = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned;
      const wildcardBit = r.wildcard === 'stream' ? FLAG_BITS.stream_wildcard_mentioned : r.wildcard === 'topic' ? FLAG_BITS.topic_wildcard_mentioned : 0;
      await setMentionBits(scope.tx, message.id, wildcardBit ? holders : [], wildcardBit, mask);
      await setMentionBits(scope.tx, message.id, holders.filter((h) => rendered.mentionedUserIds.has(h)), FLAG_BITS.mentioned, 0);
      Object.assign(event, {
        orig_content: current.content,
        orig_rendered_content: current.rendered_content,
        content,
        rendered_content: r.html,
        is_me_message: r.isMeMessage,
        prev_rendered_content_version: current.rendered_content_version,
      });
    }

    if (topicChanged || streamChanged) {
      const moved = content !== undefined ? targets.filter((m) => m.id !== message.id) : targets;
      // Every moved message left the same topic and stream (those of the target message).
      const entry: EditHistoryEntry = { user_id: user.id, timestamp: scope.now };
      if (topicChanged) Object.assign(entry, { prev_topic: message.topic, topic: finalTopic });
      if (streamChanged) Object.assign(entry, { prev_stream: message.stream_id!, stream: newStream!.id });
      await prependEditHistory(scope.tx, moved.map((m) => m.id), entry);
      await moveMessages(scope.tx, ids, { stream_id: finalStream!.id, recipient_id: finalStream!.recipient_id!, topic: finalTopic, last_edit_time: scope.now });
      Object.assign(event, {
        propagate_mode: input.propagateMode,
        orig_subject: message.topic,
        subject: finalTopic,
        topic_links: await messageTopicLinks(scope.tx, realm.id, finalTopic),
      });
      if (streamChanged) event.new_stream_id = newStream!.id;
    }

    if (streamChanged && newStream) {
      // Subscribers of the new stream get the messages (read); those who cannot read it lose them.
      const subs = new Set((await subscriberIds(scope.tx, [newStream.id])).get(newStream.id) ?? []);
      const holders = await holdersOfAny(scope.tx, ids);
      const gaining = [...subs].filter((u) => !holders.has(u));
      await insertUserMessageRows(scope.tx, gaining, ids, FLAG_BITS.read);
      const losing = newStream.invite_only || !newStream.history_public_to_subscribers ? [...holders].filter((u) => !subs.has(u)) : [];
      await deleteUserMessageRows(scope.tx, losing, ids);
      if (losing.length > 0) {
        scope.emit({ type: 'delete_message', message_type: 'stream', message_ids: ids, stream_id: oldStream!.id, topic: message.topic }, losing);
      }
    }

    const updated = await messagesByIdsInAnyRealm(scope.tx, ids);
    const audience = new Set([...oldAudience, ...(await messageAudience(scope.tx, updated))]);
    const flags = await messageHolders(scope.tx, message.id);
    const byFlags = new Map<string, number[]>();
    for (const u of audience) {
      const f = flags.get(u);
      const key = JSON.stringify(f === undefined ? ['read', 'historical'] : flagNames(f));
      byFlags.set(key, [...(byFlags.get(key) ?? []), u]);
    }
    for (const [key, users] of byFlags) scope.emit({ ...event, flags: JSON.parse(key) as string[] }, users);
  });

  if (content !== undefined && rendered) queueLinkPreviews(app, { messageId: message.id, content, urls: rendered.result.linksForPreview });

  // Notices for moves; none for a pure resolve or unresolve of a topic.
  const pureResolve = !streamChanged && topicChanged && unresolved(finalTopic) === unresolved(message.topic);
  if ((topicChanged || streamChanged) && !pureResolve && oldStream && finalStream) {
    const whole = input.propagateMode === 'change_all' || (input.propagateMode === 'change_later' && (await topicMessages(db, oldStream.id, message.topic)).length === 0);
    await sendMoveNotices(app, realm, user, {
      oldStream,
      oldTopic: message.topic,
      newStream: finalStream,
      newTopic: finalTopic,
      count: targets.length,
      wholeTopic: whole,
      notifyOld: input.notifyOldThread,
      notifyNew: input.notifyNewThread,
    });
  }
}
