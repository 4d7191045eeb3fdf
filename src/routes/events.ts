// Registering an event queue, long-polling it, and deleting it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JsonFields, route, SENT } from '../http/route.ts';
import { optional, p, alias } from '../http/params.ts';
import type { AppContext } from '../context.ts';
import { isGuest } from '../lib/permissions.ts';
import { ApiError, badRequest, notLoggedIn } from '../lib/errors.ts';
import { parseNarrow, resolveNarrow } from '../lib/narrow.ts';
import { realmSettings } from '../lib/realm.ts';
import type { ClientCapabilities } from '../events/event-type.ts';
import { badQueue, type QueueManager } from '../events/manager.ts';
import { CAPABILITY_NAMES, register } from '../events/register.ts';
import { requestSessionHash } from '../http/session.ts';

function queuesOf(app: AppContext): QueueManager {
  if (!app.queues) throw new ApiError('Event queues are not available', 'BAD_REQUEST', 400);
  return app.queues;
}

/**
 * With several processes, a queue lives in the process that registered it; a request for it that
 * reaches another process is passed on to the owner, and its answer passed back.
 */
async function forwardToOwner(
  app: AppContext,
  queueId: string,
  params: Record<string, string | number | boolean | undefined>,
  http: FastifyRequest,
  reply: FastifyReply,
): Promise<typeof SENT | null> {
  const queues = queuesOf(app);
  if (queues.has(queueId) || !queues.directory) return null;
  const owner = await queues.directory.ownerElsewhere(queueId);
  if (!owner) return null;
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) form.set(k, String(v));
  const headers: Record<string, string> = { host: http.headers.host ?? '' };
  if (http.headers.authorization) headers.authorization = http.headers.authorization;
  // A browser's poll (under /json) is passed on with its session cookie and CSRF token.
  const browser = http.url.startsWith('/json/');
  if (browser) {
    if (http.headers.cookie) headers.cookie = http.headers.cookie;
    const csrf = http.headers['x-csrftoken'];
    if (typeof csrf === 'string') headers['x-csrftoken'] = csrf;
  }
  const isGet = http.method === 'GET';
  if (!isGet) headers['content-type'] = 'application/x-www-form-urlencoded';
  let res: Response;
  try {
    res = await fetch(`${owner}${browser ? '/json' : '/api/v1'}/events${isGet ? `?${form.toString()}` : ''}`, {
      method: http.method,
      headers,
      body: isGet ? undefined : form.toString(),
    });
  } catch {
    // The owner is gone (stopped or crashed without saving): the client registers again.
    queues.directory.release(queueId);
    throw badQueue(queueId);
  }
  await reply.code(res.status).header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(await res.text());
  return SENT;
}

function checkCapabilities(value: Record<string, unknown>, name: string): ClientCapabilities {
  const caps = Object.fromEntries(CAPABILITY_NAMES.map((c) => [c, false])) as unknown as ClientCapabilities;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'boolean') throw badRequest(`${name}["${k}"] is not a boolean`);
    if ((CAPABILITY_NAMES as string[]).includes(k)) caps[k as keyof ClientCapabilities] = v;
  }
  return caps;
}

export const eventRoutes = [
  route({
    method: 'POST',
    path: '/register',
    auth: 'optional',
    params: {
      apply_markdown: optional(p.bool(), false),
      client_external_avatar: optional(alias(p.bool(), 'client_gravatar')),
      include_subscribers: optional(p.bool(), false),
      slim_presence: optional(p.bool(), false),
      event_types: optional(p.stringList()),
      all_public_streams: optional(p.bool(), false),
      client_capabilities: optional(p.object(), {}),
      fetch_event_types: optional(p.stringList()),
      narrow: optional(p.json((v, name) => parseNarrow(v, name)), []),
    },
    async handler({ app, realm, maybeUser: user, params }) {
      if (!user) {
        if (!realmSettings(realm).enable_spectator_access) {
          throw notLoggedIn();
        }
        if (params.client_external_avatar === true) throw badRequest("Invalid 'client_external_avatar' parameter for anonymous request");
        if (params.include_subscribers) throw badRequest("Invalid 'include_subscribers' parameter for anonymous request");
      }
      if (user && params.all_public_streams && isGuest(user)) throw badRequest('User not authorized for this query');
      // A queue does not follow the user's muting, so it cannot filter by `in:home`; the
      // reference refuses the operator in event narrows too.
      if (params.narrow.some((t) => t.operator === 'in')) throw badRequest('Operator in not supported.');
      const narrow = user ? await resolveNarrow(app.db.kysely, user, params.narrow) : [];
      return register(app, realm, user, {
        client: {
          userId: user?.id ?? 0,
          realmId: realm.id,
          applyMarkdown: params.apply_markdown,
          clientExternalAvatar: params.client_external_avatar ?? user !== null,
          includeSubscribers: params.include_subscribers,
          allPublicStreams: params.all_public_streams,
          narrow,
          capabilities: checkCapabilities(params.client_capabilities, 'client_capabilities'),
          slimPresence: params.slim_presence,
        },
        slimPresence: params.slim_presence,
        eventTypes: params.event_types ?? null,
        fetchEventTypes: params.fetch_event_types ?? null,
      });
    },
  }),
  // Most polls are answered before fastify by events-poll.ts, which gives this route's answers:
  // change both together.
  route({
    method: 'GET',
    path: '/events',
    auth: 'user',
    rateLimit: 'events',
    answersAfterWriters: true,
    params: {
      queue_id: p.string(),
      last_event_id: optional(p.int()),
      dont_block: optional(p.bool(), false),
    },
    async handler({ app, user, params, http, reply }) {
      const queues = queuesOf(app);
      // A poll of a queue held here (nearly every one) goes straight to it.
      if (!queues.has(params.queue_id)) {
        const forwarded = await forwardToOwner(app, params.queue_id, params, http, reply);
        if (forwarded) return forwarded;
      }
      const queue = queues.get(params.queue_id, user.id);
      const events = await queues.wait(queue, params.last_event_id, params.dont_block, (fn) => reply.raw.once('close', fn), requestSessionHash(http));
      // Each event's JSON is made once for every queue that got the same form (serialized.ts).
      return new JsonFields(`"events":${queue.eventsJson(events)},"queue_id":${JSON.stringify(queue.id)}`);
    },
  }),
  route({
    method: 'DELETE',
    path: '/events',
    auth: 'user',
    rateLimit: 'events',
    params: { queue_id: p.string() },
    async handler({ app, user, params, http, reply }) {
      const forwarded = await forwardToOwner(app, params.queue_id, { queue_id: params.queue_id }, http, reply);
      if (forwarded) return forwarded;
      const queues = queuesOf(app);
      queues.remove(queues.get(params.queue_id, user.id));
      return {};
    },
  }),
];
