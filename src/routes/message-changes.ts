// Changing messages: editing and moving, deleting, deleting topics, reactions.
import { route, SENT } from '../http/route.ts';
import { alias, optional, p, path } from '../http/params.ts';
import { id } from '../http/ids.ts';
import { checkDeleteMessage, checkDeleteTopic } from '../actions/messages/delete.ts';
import { checkEditMessage } from '../actions/messages/edit.ts';
import { checkAddReaction, checkRemoveReaction } from '../actions/messages/reactions.ts';
import { accessStreamById } from '../lib/access.ts';
import { LIMITS } from '../lib/limits.ts';

const reactionParams = {
  message_id: path(id()),
  emoji_name: optional(p.string()),
  emoji_code: optional(p.string()),
  reaction_type: optional(p.string()),
};

export const messageChangeRoutes = [
  route({
    method: 'PATCH',
    path: '/messages/{message_id}',
    auth: 'user',
    params: {
      message_id: path(id()),
      topic: optional(alias(p.string(), 'subject')),
      propagate_mode: optional(p.oneOf(['change_one', 'change_later', 'change_all']), 'change_one'),
      send_notification_to_old_thread: optional(p.bool(), false),
      send_notification_to_new_thread: optional(p.bool(), true),
      content: optional(p.string()),
      stream_id: optional(id()),
    },
    async handler({ app, realm, user, params }) {
      await checkEditMessage(app, user, realm, params.message_id, {
        content: params.content,
        topic: params.topic,
        streamId: params.stream_id,
        propagateMode: params.propagate_mode,
        notifyOldThread: params.send_notification_to_old_thread,
        notifyNewThread: params.send_notification_to_new_thread,
      });
      return {};
    },
  }),
  route({
    method: 'DELETE',
    path: '/messages/{message_id}',
    auth: 'user',
    params: { message_id: path(id()) },
    async handler({ app, realm, user, params }) {
      await checkDeleteMessage(app, user, realm, params.message_id);
      return {};
    },
  }),
  route({
    method: 'POST',
    path: '/streams/{stream_id}/delete_topic',
    auth: 'user',
    params: { stream_id: path(id()), topic_name: p.string({ maxLength: LIMITS.maxTopicLength }) },
    async handler({ app, user, params, reply }) {
      const { stream } = await accessStreamById(app.db.kysely, user, params.stream_id);
      const { complete } = await checkDeleteTopic(app, user, stream, params.topic_name.trim());
      if (!complete) {
        // The reference's answer to a timeout: status 200, progress kept, repeat the request.
        // `complete` is what newer clients read; older ones read the result.
        await reply.code(200).send({ result: 'partially_completed', msg: '', code: 'REQUEST_TIMEOUT', complete: false });
        return SENT;
      }
      return { complete: true };
    },
  }),
  route({
    method: 'POST',
    path: '/messages/{message_id}/reactions',
    auth: 'user',
    params: reactionParams,
    async handler({ app, realm, user, params }) {
      await checkAddReaction(app, user, realm, params.message_id, { emojiName: params.emoji_name, emojiCode: params.emoji_code, reactionType: params.reaction_type });
      return {};
    },
  }),
  route({
    method: 'DELETE',
    path: '/messages/{message_id}/reactions',
    auth: 'user',
    params: reactionParams,
    async handler({ app, realm, user, params }) {
      await checkRemoveReaction(app, user, realm, params.message_id, { emojiName: params.emoji_name, emojiCode: params.emoji_code, reactionType: params.reaction_type });
      return {};
    },
  }),
];
