// User status, alert words, typing notifications and presence.
import { route } from '../http/route.ts';
import { alias, optional, p, path } from '../http/params.ts';
import { id, idList, isDbId } from '../http/ids.ts';
import { alertWords, presenceOf, userStatus } from '../db/queries/presence.ts';
import { accessStreamById, accessUserByEmail, accessUserById } from '../lib/access.ts';
import { badRequest } from '../lib/errors.ts';
import { legacyPresence, realmPresences } from '../lib/presence.ts';
import { realmSettings } from '../lib/realm.ts';
import { parseSettings, USER_SETTING_DEFAULTS } from '../lib/settings-registry.ts';
import { checkTopic } from '../lib/validate.ts';
import { presentUserStatus } from '../presenters/status.ts';
import { checkAddAlertWords, checkRemoveAlertWords, checkUpdateStatus } from '../actions/status.ts';
import { checkSendTyping, doUpdatePresence } from '../actions/presence.ts';

function checkedId(n: number): number {
  if (!isDbId(n)) throw badRequest('No such user');
  return n;
}

export const presenceRoutes = [
  route({
    method: 'POST',
    path: '/users/me/status',
    auth: 'user',
    params: {
      status_text: optional(p.string()),
      away: optional(p.bool()),
      emoji_name: optional(p.string()),
      emoji_code: optional(p.string()),
      reaction_type: optional(p.string()),
    },
    async handler({ app, user, params }) {
      await checkUpdateStatus(app, user, {
        statusText: params.status_text,
        away: params.away,
        emojiName: params.emoji_name,
        emojiCode: params.emoji_code,
        reactionType: params.reaction_type,
      });
      return {};
    },
  }),
  route({
    method: 'GET',
    path: '/users/{user_id}/status',
    auth: 'user',
    params: { user_id: path(id()) },
    async handler({ app, user, params }) {
      const target = await accessUserById(app.db.kysely, user, params.user_id);
      return { status: presentUserStatus(await userStatus(app.db.kysely, target.id), false) };
    },
  }),
  route({
    method: 'GET',
    path: '/users/me/alert_words',
    auth: 'user',
    params: {},
    async handler({ app, user }) {
      return { alert_words: await alertWords(app.db.kysely, user.id) };
    },
  }),
  route({
    method: 'POST',
    path: '/users/me/alert_words',
    auth: 'user',
    params: { alert_words: p.stringList() },
    async handler({ app, user, params }) {
      return { alert_words: await checkAddAlertWords(app, user, params.alert_words) };
    },
  }),
  route({
    method: 'DELETE',
    path: '/users/me/alert_words',
    auth: 'user',
    params: { alert_words: p.stringList() },
    async handler({ app, user, params }) {
      return { alert_words: await checkRemoveAlertWords(app, user, params.alert_words) };
    },
  }),
  route({
    method: 'POST',
    path: '/typing',
    auth: 'user',
    params: {
      op: p.oneOf(['start', 'stop'] as const),
      type: optional(p.oneOf(['direct', 'private', 'stream', 'channel'] as const), 'direct'),
      to: optional(idList()),
      stream_id: optional(id()),
      topic: optional(alias(p.string(), 'topic_name')),
    },
    async handler({ app, user, params }) {
      if (params.type === 'direct' || params.type === 'private') {
        if (params.to === undefined) throw badRequest("Missing 'to' argument");
        if (params.to.length === 0) throw badRequest("Empty 'to' list");
        await checkSendTyping(app, user, params.op, { kind: 'direct', userIds: params.to });
        return {};
      }
      // Before feature level 215 the stream went in `to` as a one-element list.
      const streamId = params.stream_id ?? (params.to?.length === 1 ? params.to[0] : undefined);
      if (streamId === undefined) throw badRequest('Missing stream_id');
      if (params.topic === undefined) throw badRequest('Missing topic');
      const topic = checkTopic(params.topic);
      const { stream } = await accessStreamById(app.db.kysely, user, streamId);
      await checkSendTyping(app, user, params.op, { kind: 'stream', stream, topic });
      return {};
    },
  }),
  route({
    method: 'POST',
    path: '/users/me/presence',
    auth: 'user',
    params: {
      status: p.oneOf(['active', 'idle'] as const),
      ping_only: optional(p.bool(), false),
      new_user_input: optional(p.bool(), false),
      slim_presence: optional(p.bool(), false),
    },
    async handler({ app, realm, user, params }) {
      await doUpdatePresence(app, user, realm, params.status);
      if (params.ping_only) return {};
      const now = Math.floor(Date.now() / 1000);
      return { presences: await realmPresences(app.db.kysely, realm, params.slim_presence, now), server_timestamp: now, zephyr_mirror_active: false };
    },
  }),
  route({
    method: 'GET',
    path: '/realm/presence',
    auth: 'user',
    params: {},
    async handler({ app, realm }) {
      const now = Math.floor(Date.now() / 1000);
      return { presences: await realmPresences(app.db.kysely, realm, false, now), server_timestamp: now };
    },
  }),
  route({
    method: 'GET',
    path: '/users/{user_id_or_email}/presence',
    auth: 'user',
    params: { user_id_or_email: path(p.string()) },
    async handler({ app, realm, user, params }) {
      const db = app.db.kysely;
      const key = params.user_id_or_email;
      const target = /^\d+$/.test(key) ? await accessUserById(db, user, checkedId(Number(key))) : await accessUserByEmail(db, user, key);
      if (target.is_bot) throw badRequest('Presence is not supported for bot users.');
      const row = realmSettings(realm).presence_disabled ? undefined : await presenceOf(db, target.id);
      const shown = row && parseSettings(USER_SETTING_DEFAULTS, target.settings).presence_enabled;
      if (!row || !shown) throw badRequest(`No presence data for ${key}`);
      return { presence: legacyPresence(row) };
    },
  }),
];
