// Personal subscription settings, and who is subscribed to a stream.
import { route } from '../http/route.ts';
import { expectObject, p, path } from '../http/params.ts';
import { id, isDbId } from '../http/ids.ts';
import { subscriberIds } from '../db/queries/streams.ts';
import { isSubscribed } from '../db/queries/subscriptions.ts';
import { accessStreamById, accessUserById } from '../lib/access.ts';
import { badRequest } from '../lib/errors.ts';
import { checkUpdateSubscriptionProperties, type PropertyChange } from '../actions/subscription-properties.ts';

function checkSubscriptionData(value: unknown, name: string): PropertyChange[] {
  if (!Array.isArray(value)) throw badRequest(`${name} is not a list`);
  return value.map((item, i) => {
    const o = expectObject(item, `${name}[${i}]`);
    if (!Number.isSafeInteger(o.stream_id)) throw badRequest(`${name}[${i}]["stream_id"] is not an integer`);
    if (!isDbId(o.stream_id)) throw badRequest(`${name}[${i}]["stream_id"] is too large`);
    if (typeof o.property !== 'string') throw badRequest(`${name}[${i}]["property"] is not a string`);
    if (!('value' in o)) throw badRequest(`${name}[${i}] is missing "value"`);
    return { stream_id: o.stream_id as number, property: o.property, value: o.value };
  });
}

/** The single-property form sends `value` JSON-encoded, or a colour as plain text. */
function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

export const subscriptionSettingRoutes = [
  route({
    method: 'POST',
    path: '/users/me/subscriptions/properties',
    auth: 'user',
    params: { subscription_data: p.json(checkSubscriptionData) },
    async handler({ app, user, params }) {
      await checkUpdateSubscriptionProperties(app, user, params.subscription_data);
      return {};
    },
  }),
  route({
    method: 'PATCH',
    path: '/users/me/subscriptions/{stream_id}',
    auth: 'user',
    params: { stream_id: path(id()), property: p.string(), value: p.custom(parseValue) },
    async handler({ app, user, params }) {
      await checkUpdateSubscriptionProperties(app, user, [{ stream_id: params.stream_id, property: params.property, value: params.value }]);
      return {};
    },
  }),
  route({
    method: 'GET',
    path: '/streams/{stream_id}/members',
    auth: 'user',
    params: { stream_id: path(id()) },
    async handler({ app, user, params }) {
      const db = app.db.kysely;
      const { stream } = await accessStreamById(db, user, params.stream_id);
      return { subscribers: (await subscriberIds(db, [stream.id])).get(stream.id) ?? [] };
    },
  }),
  route({
    method: 'GET',
    path: '/users/{user_id}/subscriptions/{stream_id}',
    auth: 'user',
    params: { user_id: path(id()), stream_id: path(id()) },
    async handler({ app, user, params }) {
      const db = app.db.kysely;
      const target = await accessUserById(db, user, params.user_id);
      const { stream } = await accessStreamById(db, user, params.stream_id);
      return { is_subscribed: await isSubscribed(db, target.id, stream.id) };
    },
  }),
];
