// A route: method, path, who may call it, its parameters, and a handler that returns the fields
// of the success response. `registerRoutes` turns the route table into fastify routes.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Realm, User } from '../db/schema.ts';
import { ApiError, notLoggedIn } from '../lib/errors.ts';
import { authenticate, refuseIncomingWebhookBot } from './auth.ts';
import type { RequestBucket } from './rate-limit.ts';
import { authenticateBasicOrSession, authenticateSession, type Identity } from './session.ts';
import { decodeParams, type Decoded, type ParamSpecs } from './params.ts';
import { readRawParams } from './body.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

export interface ApiRequest<P> {
  app: AppContext;
  realm: Realm;
  /** Routes with `auth: 'server'` may be reached on a host with no realm. */
  maybeRealm: Realm | null;
  /** The authenticated user; routes with `auth: 'optional'` read `maybeUser` instead. */
  user: User;
  maybeUser: User | null;
  params: P;
  /** The uploaded file of a route with `fileMaxMib` (null without one). */
  file: Buffer | null;
  http: FastifyRequest;
  reply: FastifyReply;
}

/** A handler returns the success fields, or `SENT` when it wrote the reply itself (files). */
export const SENT = Symbol('sent');

/**
 * Success fields already in JSON (`"name":value,...`), for answers put together from parts that
 * were serialized once for many requests (a long-poll's events): the route layer wraps them in the
 * success envelope without parsing or serializing them again.
 */
export class JsonFields {
  constructor(readonly text: string) {}
}

export type HandlerResult = Record<string, unknown> | JsonFields | typeof SENT;

export interface Route<S extends ParamSpecs = ParamSpecs> {
  method: Method;
  path: string; // '/users/{user_id}', relative to /api/v1 (or to the prefix registerRoutes is given)
  /** user: credentials required; optional: credentials if given; none: no credentials; server: not even a realm. */
  auth: 'user' | 'optional' | 'none' | 'server';
  params: S;
  /** The handler reads the body itself (file uploads): only the query string is decoded. */
  streamBody?: boolean;
  /** A multipart body may carry one file of at most this many MiB besides its parameters. */
  fileMaxMib?: number;
  /** Incoming-webhook bots may call it (the reference lets them only send messages). */
  incomingWebhookBots?: boolean;
  /**
   * Answered only after the requests whose writes it waited for (a long-poll waits for the flush
   * of the send that woke it): both resume when that flush ends, and the sender's answer, which
   * has further to go, is not left behind a burst of poll answers.
   */
  answersAfterWriters?: boolean;
  /** The budget its requests count against (see rate-limit.ts); the user's by default. */
  rateLimit?: RequestBucket;
  handler(req: ApiRequest<Decoded<S>>): Promise<HandlerResult>;
}

/** What a handler is given; a class, so that a request costs one object. */
class HandlerRequest<P> implements ApiRequest<P> {
  constructor(
    readonly app: AppContext,
    readonly maybeRealm: Realm | null,
    readonly maybeUser: User | null,
    readonly params: P,
    readonly http: FastifyRequest,
    readonly reply: FastifyReply,
    readonly file: Buffer | null,
  ) {}

  get realm(): Realm {
    if (!this.maybeRealm) throw new ApiError('There is no organization at this address', 'BAD_REQUEST', 404);
    return this.maybeRealm;
  }

  get user(): User {
    if (!this.maybeUser) throw notLoggedIn();
    return this.maybeUser;
  }
}

let nextTurn: Promise<void> | null = null;
/**
 * Resolves in the next turn of the event loop, once the promise continuations of this one have
 * run (answersAfterWriters).
 */
export function afterThisTurn(): Promise<void> {
  return (nextTurn ??= new Promise((resolve) =>
    setImmediate(() => {
      nextTurn = null;
      resolve();
    }),
  ));
}

/** Declares a route; the generic keeps the handler's params typed. */
export function route<S extends ParamSpecs>(r: Route<S>): Route {
  return r as unknown as Route;
}

/**
 * How a registration of the route table authenticates: `basic` (the API under /api/v1), `session`
 * (the browser: /json and /accounts), or `basic-or-session` (files a browser loads by URL).
 */
export type AuthBy = 'basic' | 'session' | 'basic-or-session';

/** Fastify route config: the error handler challenges for Basic credentials only where they are read. */
export interface RouteConfig {
  authBy: AuthBy;
}

type Authenticator = (app: AppContext, request: FastifyRequest, reply: FastifyReply, mode: Route['auth']) => Promise<Identity>;

const AUTHENTICATORS: Record<AuthBy, Authenticator> = {
  basic: (app, request, _reply, mode) => authenticate(app, request, mode),
  session: authenticateSession,
  'basic-or-session': authenticateBasicOrSession,
};

export function registerRoutes(fastify: FastifyInstance, app: AppContext, routes: Route[], prefix = '/api/v1', authBy: AuthBy = 'basic'): void {
  const auth = AUTHENTICATORS[authBy];
  const config: RouteConfig = { authBy };
  for (const r of routes) {
    const url = prefix + r.path.replace(/\{(\w+)\}/g, ':$1');
    const bucket = r.rateLimit ?? 'api';
    fastify.route({
      method: r.method,
      url,
      config,
      handler: async (request, reply) => {
        let identity: Identity;
        try {
          identity = await auth(app, request, reply, r.auth);
        } catch (err) {
          await app.limiter.refusedCredentials(request, reply);
          throw err;
        }
        const { realm, user } = identity;
        if (user !== null && !r.incomingWebhookBots) refuseIncomingWebhookBot(user);
        const limited = app.limiter.request(request, reply, user, bucket);
        if (limited !== undefined) await limited;
        const raw = await readRawParams(request, r.streamBody ?? false, r.fileMaxMib === undefined ? undefined : r.fileMaxMib * 1024 * 1024);
        const { params, ignored } = decodeParams(r.params, raw);
        const apiReq = new HandlerRequest(app, realm, user, params, request, reply, raw.file);
        let result: HandlerResult;
        try {
          result = await r.handler(apiReq);
        } finally {
          // Nothing is answered, success or not, before what it wrote or read is on disk: a
          // long-poll's events or a read of a message just sent wait for the same flush as the
          // sender (and for nothing when no commit is waiting for one).
          await app.db.sync();
          if (r.answersAfterWriters) await afterThisTurn();
        }
        if (result === SENT) return reply;
        // What a user reads is theirs: no cache (browser or proxy) keeps it.
        if (user !== null) reply.header('cache-control', 'no-store');
        if (result instanceof JsonFields) {
          const extra = ignored.length > 0 ? `,"ignored_parameters_unsupported":${JSON.stringify(ignored)}` : '';
          return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(`{"result":"success","msg":"",${result.text}${extra}}`);
        }
        const body: Record<string, unknown> = { result: 'success', msg: '', ...result };
        if (ignored.length > 0) body.ignored_parameters_unsupported = ignored;
        return reply.code(200).send(body);
      },
    });
  }
}
