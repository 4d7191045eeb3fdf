// A stream's topics, and the caller's muted, unmuted and followed topics.
import { route } from '../http/route.ts';
import { optional, p, path } from '../http/params.ts';
import { id } from '../http/ids.ts';
import type { Conn } from '../db/database.ts';
import type { Stream } from '../db/schema.ts';
import { streamById, streamByName } from '../db/queries/streams.ts';
import { streamTopics, VISIBILITY, VISIBILITY_POLICIES } from '../db/queries/user-topics.ts';
import { accessStreamById, accessStreamByName, canReadStreamMessages } from '../lib/access.ts';
import { badRequest, streamDoesNotExist } from '../lib/errors.ts';
import { LIMITS } from '../lib/limits.ts';
import { checkSetTopicVisibility } from '../actions/user-topics.ts';

const topicParam = () => p.string({ maxLength: LIMITS.maxTopicLength });

export const userTopicRoutes = [
  route({
    method: 'GET',
    path: '/users/me/{stream_id}/topics',
    auth: 'user',
    params: { stream_id: path(id()), allow_empty_topic_name: optional(p.bool(), false) },
    async handler({ app, user, params }) {
      const db = app.db.kysely;
      const { stream, sub } = await accessStreamById(db, user, params.stream_id);
      if (!canReadStreamMessages(user, stream, sub)) throw badRequest('Invalid stream ID');
      // With protected history, only the messages the caller received show their topics.
      const topics = await streamTopics(db, stream.id, stream.history_public_to_subscribers ? null : user.id);
      return { topics };
    },
  }),
  route({
    method: 'POST',
    path: '/user_topics',
    auth: 'user',
    params: {
      stream_id: id(),
      topic: topicParam(),
      visibility_policy: p.custom((raw, name) => {
        const n = Number(raw);
        if (!/^\d+$/.test(raw.trim()) || !VISIBILITY_POLICIES.includes(n)) throw badRequest(`Invalid ${name}`);
        return n;
      }),
    },
    async handler({ app, user, params }) {
      const stream = await streamById(app.db.kysely, user.realm_id, params.stream_id);
      if (!stream) throw badRequest('Invalid stream ID');
      await checkSetTopicVisibility(app, user, stream, params.topic, params.visibility_policy);
      return {};
    },
  }),
  route({
    method: 'PATCH',
    path: '/users/me/subscriptions/muted_topics',
    auth: 'user',
    params: { stream_id: optional(id()), stream: optional(p.string()), topic: topicParam(), op: p.oneOf(['add', 'remove'] as const) },
    async handler({ app, user, params }) {
      const db = app.db.kysely;
      if (params.stream_id !== undefined && params.stream !== undefined) throw badRequest("Please choose one: 'stream' or 'stream_id'.");
      let stream: Stream;
      if (params.stream_id !== undefined) {
        const found = await streamById(db, user.realm_id, params.stream_id);
        if (!found) throw badRequest('Invalid stream ID');
        stream = found;
      } else if (params.stream !== undefined) {
        stream = params.op === 'add' ? (await accessStreamByName(db, user, params.stream)).stream : await streamForUnmute(db, user.realm_id, params.stream);
      } else {
        throw badRequest("Please supply 'stream'.");
      }
      await checkSetTopicVisibility(app, user, stream, params.topic, params.op === 'add' ? VISIBILITY.MUTED : VISIBILITY.INHERIT);
      return {};
    },
  }),
];

/** Unmuting works on any stream of the realm, even one the caller can no longer see. */
async function streamForUnmute(db: Conn, realmId: number, name: string): Promise<Stream> {
  const stream = await streamByName(db, realmId, name);
  if (!stream) throw streamDoesNotExist(name);
  return stream;
}
