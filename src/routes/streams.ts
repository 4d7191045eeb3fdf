// Streams: listing, reading, looking up by name.
import { route } from '../http/route.ts';
import { optional, p, path } from '../http/params.ts';
import { id } from '../http/ids.ts';
import { allSubscriptionRows, recentMessageCounts, streamsInRealm } from '../db/queries/streams.ts';
import { defaultStreamIds } from '../db/queries/default-streams.ts';
import { accessStreamById, accessStreamByName, canSeeStream } from '../lib/access.ts';
import { isAdmin, isGuest } from '../lib/permissions.ts';
import { badRequest } from '../lib/errors.ts';
import { presentStream, weeklyTraffic } from '../presenters/stream.ts';

const WEEKS = 4 * 7 * 86400;

export const streamRoutes = [
  route({
    method: 'GET',
    path: '/streams',
    auth: 'user',
    params: {
      include_public: optional(p.bool(), true),
      include_web_public: optional(p.bool(), false),
      include_subscribed: optional(p.bool(), true),
      include_all_active: optional(p.bool(), false),
      include_default: optional(p.bool(), false),
      include_owner_subscribed: optional(p.bool(), false),
    },
    async handler({ app, realm, user, params }) {
      if (params.include_all_active && !isAdmin(user)) throw badRequest('User not authorized for this query');
      const db = app.db.kysely;
      const streams = await streamsInRealm(db, realm.id);
      const subs = await allSubscriptionRows(db, user.id);
      const defaults = params.include_default
        ? new Set(await defaultStreamIds(db, realm.id))
        : new Set<number>();
      const ownerSubs = params.include_owner_subscribed && user.is_bot && user.bot_owner_id !== null ? await allSubscriptionRows(db, user.bot_owner_id) : new Map();
      const chosen = streams.filter((s) => {
        const sub = subs.get(s.id);
        if (params.include_all_active) return true;
        if (params.include_subscribed && sub?.active) return true;
        if (params.include_public && !s.invite_only && !isGuest(user)) return true;
        if (params.include_web_public && s.is_web_public) return true;
        if (defaults.has(s.id) && canSeeStream(user, s, sub)) return true;
        if (ownerSubs.get(s.id)?.active) return true;
        return false;
      });
      const now = Math.floor(Date.now() / 1000);
      const counts = await recentMessageCounts(db, chosen.map((s) => s.id), now - WEEKS);
      return { streams: chosen.map((s) => presentStream(s, weeklyTraffic(s, counts.get(s.id), now))) };
    },
  }),
  route({
    method: 'GET',
    path: '/streams/{stream_id}',
    auth: 'user',
    params: { stream_id: path(id()) },
    async handler({ app, user, params }) {
      const { stream } = await accessStreamById(app.db.kysely, user, params.stream_id);
      const now = Math.floor(Date.now() / 1000);
      const counts = await recentMessageCounts(app.db.kysely, [stream.id], now - WEEKS);
      return { stream: presentStream(stream, weeklyTraffic(stream, counts.get(stream.id), now)) };
    },
  }),
  route({
    method: 'GET',
    path: '/get_stream_id',
    auth: 'user',
    params: { stream: p.string() },
    async handler({ app, user, params }) {
      const { stream } = await accessStreamByName(app.db.kysely, user, params.stream);
      return { stream_id: stream.id };
    },
  }),
];
