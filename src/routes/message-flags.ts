// Personal message flags and the mark-as-read operations.
import { route } from '../http/route.ts';
import { alias, optional, p } from '../http/params.ts';
import { id, idList } from '../http/ids.ts';
import { checkMarkRead, checkUpdateFlags, checkUpdateFlagsForNarrow } from '../actions/messages/flags.ts';
import { accessStreamById } from '../lib/access.ts';
import { parseNarrow } from '../lib/narrow.ts';

const op = p.oneOf(['add', 'remove']);

export const messageFlagRoutes = [
  route({
    method: 'POST',
    path: '/messages/flags',
    auth: 'user',
    params: { messages: idList(), op, flag: p.string() },
    async handler({ app, user, params }) {
      return { messages: await checkUpdateFlags(app, user, params.op, params.flag, params.messages) };
    },
  }),
  route({
    method: 'POST',
    path: '/messages/flags/narrow',
    auth: 'user',
    params: {
      anchor: p.intOr(['newest', 'oldest', 'first_unread']),
      include_anchor: optional(p.bool(), true),
      num_before: p.int({ min: 0 }),
      num_after: p.int({ min: 0 }),
      narrow: p.json(parseNarrow),
      op,
      flag: p.string(),
    },
    async handler({ app, user, params }) {
      const r = await checkUpdateFlagsForNarrow(app, user, params.op, params.flag, {
        anchor: params.anchor,
        includeAnchor: params.include_anchor,
        numBefore: params.num_before,
        numAfter: params.num_after,
        narrow: params.narrow,
      });
      return { ...r };
    },
  }),
  route({
    method: 'POST',
    path: '/mark_all_as_read',
    auth: 'user',
    params: {},
    async handler({ app, user }) {
      await checkMarkRead(app, user, {});
      return { complete: true };
    },
  }),
  route({
    method: 'POST',
    path: '/mark_stream_as_read',
    auth: 'user',
    params: { stream_id: id() },
    async handler({ app, user, params }) {
      const { stream } = await accessStreamById(app.db.kysely, user, params.stream_id);
      await checkMarkRead(app, user, { streamId: stream.id });
      return {};
    },
  }),
  route({
    method: 'POST',
    path: '/mark_topic_as_read',
    auth: 'user',
    params: { stream_id: id(), topic_name: alias(p.string(), 'topic') },
    async handler({ app, user, params }) {
      const { stream } = await accessStreamById(app.db.kysely, user, params.stream_id);
      await checkMarkRead(app, user, { streamId: stream.id, topic: params.topic_name });
      return {};
    },
  }),
];
