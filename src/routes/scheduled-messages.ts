// The caller's scheduled messages.
import { id } from '../http/ids.ts';
import { route } from '../http/route.ts';
import { alias, optional, p, path } from '../http/params.ts';
import { pendingScheduledMessagesOf } from '../db/queries/scheduled-messages.ts';
import { presentScheduledMessage } from '../presenters/scheduled-message.ts';
import {
  checkCreateScheduledMessage,
  checkDeleteScheduledMessage,
  checkEditScheduledMessage,
  parseScheduledTo,
  scheduledType,
} from '../actions/scheduled-messages.ts';

const TYPES = ['direct', 'private', 'stream', 'channel'] as const;

export const scheduledMessageRoutes = [
  route({
    method: 'GET',
    path: '/scheduled_messages',
    auth: 'user',
    params: {},
    async handler({ app, user }) {
      return { scheduled_messages: (await pendingScheduledMessagesOf(app.db.kysely, user.id)).map(presentScheduledMessage) };
    },
  }),
  route({
    method: 'POST',
    path: '/scheduled_messages',
    auth: 'user',
    params: {
      type: p.oneOf(TYPES),
      to: p.json(parseScheduledTo),
      content: p.string(),
      topic: optional(alias(p.string(), 'subject')),
      scheduled_delivery_timestamp: p.int(),
      read_by_sender: optional(p.bool()),
    },
    async handler({ app, realm, user, params }) {
      const id = await checkCreateScheduledMessage(app, user, realm, {
        type: scheduledType(params.type),
        to: params.to,
        topic: params.topic,
        content: params.content,
        scheduledDeliveryTimestamp: params.scheduled_delivery_timestamp,
        readBySender: params.read_by_sender,
      });
      return { scheduled_message_id: id };
    },
  }),
  route({
    method: 'PATCH',
    path: '/scheduled_messages/{scheduled_message_id}',
    auth: 'user',
    params: {
      scheduled_message_id: path(id()),
      type: optional(p.oneOf(TYPES)),
      to: optional(p.json(parseScheduledTo)),
      content: optional(p.string()),
      topic: optional(alias(p.string(), 'subject')),
      scheduled_delivery_timestamp: optional(p.int()),
    },
    async handler({ app, realm, user, params }) {
      await checkEditScheduledMessage(app, user, realm, params.scheduled_message_id, {
        type: params.type === undefined ? undefined : scheduledType(params.type),
        to: params.to,
        topic: params.topic,
        content: params.content,
        scheduledDeliveryTimestamp: params.scheduled_delivery_timestamp,
      });
      return {};
    },
  }),
  route({
    method: 'DELETE',
    path: '/scheduled_messages/{scheduled_message_id}',
    auth: 'user',
    params: { scheduled_message_id: path(id()) },
    async handler({ app, user, params }) {
      await checkDeleteScheduledMessage(app, user, params.scheduled_message_id);
      return {};
    },
  }),
];
