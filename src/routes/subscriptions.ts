// The caller's subscriptions: listing, subscribing (creating streams), unsubscribing.
import { route } from '../http/route.ts';
import { optional, p } from '../http/params.ts';
import { id, isDbId } from '../http/ids.ts';
import type { Conn } from '../db/database.ts';
import type { User } from '../db/schema.ts';
import { recentMessageCounts, subscriberIds, subscriptionsOfUser } from '../db/queries/streams.ts';
import { accessUserByEmail, accessUserById } from '../lib/access.ts';
import { badRequest } from '../lib/errors.ts';
import { MAX_DB_ID } from '../lib/limits.ts';
import { STREAM_POST_POLICY } from '../lib/permissions.ts';
import { presentSubscription, weeklyTraffic } from '../presenters/stream.ts';
import { checkSubscribe, checkUnsubscribe, checkUpdateSubscriptions, type StreamSpec } from '../actions/subscriptions.ts';

const WEEKS = 4 * 7 * 86400;

function checkStreamSpecs(value: unknown, name: string): StreamSpec[] {
  if (!Array.isArray(value)) throw badRequest(`${name} is not a list`);
  return value.map((item, i) => {
    if (typeof item !== 'object' || item === null || typeof (item as { name?: unknown }).name !== 'string') {
      throw badRequest(`${name}[${i}] is not a dict with a name`);
    }
    const o = item as { name: string; description?: unknown; color?: unknown };
    if (o.description !== undefined && typeof o.description !== 'string') throw badRequest(`${name}[${i}]["description"] is not a string`);
    if (o.color !== undefined && typeof o.color !== 'string') throw badRequest(`${name}[${i}]["color"] is not a string`);
    return { name: o.name, description: o.description ?? '', ...(o.color !== undefined ? { color: o.color } : {}) };
  });
}

function checkPrincipals(value: unknown, name: string): (string | number)[] {
  if (!Array.isArray(value) || !(value.every((v) => typeof v === 'string') || value.every((v) => Number.isInteger(v)))) {
    throw badRequest(`${name} is not a list of emails or a list of user IDs`);
  }
  value.forEach((v, i) => {
    if (typeof v === 'number' && !isDbId(v)) throw badRequest(`${name}[${i}] is too large`);
  });
  return value as (string | number)[];
}

async function resolvePrincipals(db: Conn, caller: User, principals: (string | number)[] | undefined): Promise<User[] | null> {
  if (principals === undefined) return null;
  if (principals.length === 0) throw badRequest('Nothing to do. Specify at least one user.');
  const users: User[] = [];
  for (const pr of principals) {
    users.push(typeof pr === 'number' ? await accessUserById(db, caller, pr) : await accessUserByEmail(db, caller, pr));
  }
  return users;
}

function checkRetention(value: unknown): number | null {
  if (value === 'realm_default') return null;
  if (value === 'unlimited') return -1;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= MAX_DB_ID) return value;
  throw badRequest('Bad value for \'message_retention_days\'');
}

export const subscriptionRoutes = [
  route({
    method: 'GET',
    path: '/users/me/subscriptions',
    auth: 'user',
    params: { include_subscribers: optional(p.bool(), false) },
    async handler({ app, user, params }) {
      const db = app.db.kysely;
      const rows = await subscriptionsOfUser(db, user.id);
      const now = Math.floor(Date.now() / 1000);
      const ids = rows.map((r) => r.stream.id);
      const counts = await recentMessageCounts(db, ids, now - WEEKS);
      const subscribers = params.include_subscribers ? await subscriberIds(db, ids) : null;
      return {
        subscriptions: rows.map(({ sub, stream }) => {
          const json = presentSubscription(stream, sub, weeklyTraffic(stream, counts.get(stream.id), now));
          return subscribers ? { ...json, subscribers: subscribers.get(stream.id) ?? [] } : json;
        }),
      };
    },
  }),
  route({
    method: 'POST',
    path: '/users/me/subscriptions',
    auth: 'user',
    params: {
      subscriptions: p.json(checkStreamSpecs),
      principals: optional(p.json(checkPrincipals)),
      authorization_errors_fatal: optional(p.bool(), true),
      announce: optional(p.bool(), false),
      invite_only: optional(p.bool(), false),
      is_web_public: optional(p.bool(), false),
      is_default_stream: optional(p.bool(), false),
      history_public_to_subscribers: optional(p.bool()),
      stream_post_policy: optional(p.int({ min: 1, max: 4 }), STREAM_POST_POLICY.EVERYONE),
      message_retention_days: optional(p.json(checkRetention), null),
      can_remove_subscribers_group_id: optional(id()),
    },
    async handler({ app, realm, user, params }) {
      const principals = await resolvePrincipals(app.db.kysely, user, params.principals);
      return {
        ...(await checkSubscribe(
          app,
          user,
          realm,
          params.subscriptions,
          principals,
          {
            inviteOnly: params.invite_only,
            isWebPublic: params.is_web_public,
            historyPublicToSubscribers: params.history_public_to_subscribers,
            streamPostPolicy: params.stream_post_policy,
            messageRetentionDays: params.message_retention_days,
            canRemoveSubscribersGroupId: params.can_remove_subscribers_group_id,
            isDefaultStream: params.is_default_stream,
            announce: params.announce,
          },
          params.authorization_errors_fatal,
        )),
      };
    },
  }),
  route({
    method: 'DELETE',
    path: '/users/me/subscriptions',
    auth: 'user',
    params: { subscriptions: p.stringList(), principals: optional(p.json(checkPrincipals)) },
    async handler({ app, realm, user, params }) {
      const principals = await resolvePrincipals(app.db.kysely, user, params.principals);
      return { ...(await checkUnsubscribe(app, user, realm, params.subscriptions, principals)) };
    },
  }),
  route({
    method: 'PATCH',
    path: '/users/me/subscriptions',
    auth: 'user',
    params: { add: optional(p.json(checkStreamSpecs), []), delete: optional(p.stringList(), []) },
    async handler({ app, realm, user, params }) {
      return {
        ...(await checkUpdateSubscriptions(app, user, realm, params.add, params.delete, {
          inviteOnly: false,
          isWebPublic: false,
          historyPublicToSubscribers: undefined,
          streamPostPolicy: STREAM_POST_POLICY.EVERYONE,
          messageRetentionDays: null,
          canRemoveSubscribersGroupId: undefined,
        })),
      };
    },
  }),
];
