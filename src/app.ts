// Builds the server: the database, the event hub, fastify with its plugins, and the route table.
import { closeMail } from './lib/mail.ts';
import http from 'node:http';
import v8 from 'node:v8';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openDatabase } from './db/database.ts';
import type { EventHub } from './events/hub.ts';
import { QueueManager } from './events/manager.ts';
import { RedisBus } from './events/redis-bus.ts';
import { restoreQueues, saveQueues } from './events/store.ts';
import type { ParleyEvent } from './events/registry.ts';
import { clientErrorHandler, frameworkErrorHandler, installErrorHandlers, installSecurityHeaders } from './http/errors.ts';
import { RateLimiter } from './http/rate-limit.ts';
import { RequestLogger } from './http/request-logger.ts';
import { registerRoutes } from './http/route.ts';
import { createLogger, type Logger } from './log.ts';
import { browserRoutes, rootRoutes, routes } from './routes/index.ts';
import { registerWebApp } from './http/web-app.ts';
import { pollAnswerer } from './routes/events-poll.ts';
import { realmEmojiFileRoutes } from './routes/realm-emoji.ts';
import { avatarFileRoutes } from './routes/avatars.ts';
import { startScheduler, type Scheduler } from './scheduler.ts';
import { collectGarbage, watchIdle, type IdleWatch } from './http/idle.ts';
import { removeStaleTempFiles } from './lib/uploads.ts';
import { serverSecret } from './db/queries/secrets.ts';
import { liveSession } from './db/queries/sessions.ts';
import { Limiter } from './lib/limiter.ts';
import { LIMITS } from './lib/limits.ts';

export interface Server {
  app: AppContext;
  fastify: FastifyInstance;
  /** Starts listening; resolves to the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface ServerOptions {
  log?: Logger;
  /** Sees every published event with its receivers (tests record them through this). */
  onPublish?: (event: ParleyEvent, userIds: readonly number[]) => void;
}

/**
 * V8 allocates straight into the old generation from code whose objects it saw survive. The same
 * code serves long-polls that wait a minute and requests that last a millisecond, so it pretenured
 * the short ones too (3.5 KB a request), and every full collection is a pause for every client.
 * In bench/events.ts what reached the old generation fell from 17-26 MB/s to 0.75 MB/s.
 */
function tuneGarbageCollector(): void {
  v8.setFlagsFromString('--no-allocation-site-pretenuring');
}

/**
 * What an idle server gives back (src/http/idle.ts): the garbage and, at the second of two
 * collections a quiet period apart, V8's young generation.
 */
function releaseIdleMemory(log: Logger): void {
  const start = performance.now();
  collectGarbage();
  log.debug({ ms: Math.round(performance.now() - start), heapMb: Math.round(process.memoryUsage().heapTotal / 2 ** 20) }, 'idle: memory released');
}

function noSchemas(): never {
  throw new Error('Fastify route schemas are not used here: decode parameters with src/http/params.ts');
}

export async function createServer(config: Config, opts: ServerOptions = {}): Promise<Server> {
  tuneGarbageCollector();
  const log = opts.log ?? createLogger(config.logLevel);
  const db = await openDatabase(config);
  const queues = new QueueManager({
    timeoutSeconds: config.eventQueueTimeoutSeconds,
    heartbeatSeconds: config.heartbeatSeconds,
    answerGapMs: config.eventAnswerGapMs,
    maxQueuesPerUser: config.maxEventQueuesPerUser,
    sessionLive: async (tokenHash) => (await liveSession(db.kysely, tokenHash, Math.floor(Date.now() / 1000))) !== undefined,
    log,
  });
  const restored = await restoreQueues(db, queues, log);
  if (restored > 0) log.info({ restored }, 'restored saved event queues');
  // Several processes share events through Redis; one process delivers to its queues directly.
  const bus = config.redisUrl ? new RedisBus(config.redisUrl, config.redisPrefix, queues, log) : null;
  if (bus) await bus.start();
  const limiter = await RateLimiter.start(config, log);
  const hub: EventHub = bus ?? queues;
  const onPublish = opts.onPublish;
  const app: AppContext = {
    config,
    db,
    log,
    events: onPublish
      ? {
          publish(event, userIds) {
            onPublish(event, userIds);
            hub.publish(event, userIds);
          },
          sessionsEnded: (userId) => hub.sessionsEnded(userId),
        }
      : hub,
    queues,
    limiter,
    startedAt: Math.floor(Date.now() / 1000),
    imageProxyKey: config.imageProxySecret ?? (await serverSecret(db.kysely, 'image_proxy')),
    previews: new Set(),
    fetchSlots: { previews: new Limiter(LIMITS.linkPreviewConcurrency), images: new Limiter(LIMITS.imageProxyConcurrency) },
  };
  const answersPoll = pollAnswerer(app);
  const fastify = Fastify({
    // Request logs only for warnings and errors: a chat server's traffic is mostly long-polls.
    loggerInstance: log.child({ component: 'http' }, { level: 'warn' }) as FastifyBaseLogger,
    childLoggerFactory: RequestLogger.factory,
    bodyLimit: 16 * 1024 * 1024,
    // The common long-poll is answered before fastify sees it (routes/events-poll.ts); fastify
    // does not set a server's timeouts when it is given one.
    serverFactory: (handler) => {
      const server = http.createServer((req, res) => {
        if (!answersPoll(req, res)) handler(req, res);
      });
      // Long-polls hold requests open for about a minute; let them.
      server.requestTimeout = 0;
      server.keepAliveTimeout = 65_000;
      return server;
    },
    // Longer than any path parameter names (an email is up to 254 characters); past it, a 400.
    routerOptions: { maxParamLength: 1024 },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // Behind proxies, the client's address (which per-address limits count) is in X-Forwarded-For.
    trustProxy: config.trustProxy,
    // Parameters are decoded by src/http/params.ts, never by JSON schemas: without these
    // factories Fastify loads Ajv and its serializer compiler, about 8 MB that nothing uses.
    schemaController: { compilersFactory: { buildValidator: noSchemas, buildSerializer: noSchemas } },
  });
  await fastify.register(formbody);
  await fastify.register(multipart, {
    limits: { fileSize: config.maxFileUploadSizeMib * 1024 * 1024, files: 1, fields: 1000, fieldSize: 16 * 1024 * 1024 },
  });
  installErrorHandlers(fastify, log);
  installSecurityHeaders(fastify);
  registerRoutes(fastify, app, routes);
  // The browser's API: the same table, authenticated by the session cookie.
  registerRoutes(fastify, app, routes, '/json', 'session');
  registerRoutes(fastify, app, browserRoutes, '', 'session');
  // Routes outside /api/v1 (uploaded files, custom emoji images), with the same conventions; a
  // browser loads them with its session cookie.
  registerRoutes(fastify, app, [...rootRoutes, ...realmEmojiFileRoutes, ...avatarFileRoutes], '', 'basic-or-session');
  registerWebApp(fastify, config.webDir);
  let scheduler: Scheduler | null = null;
  let idle: IdleWatch | null = null;

  return {
    app,
    fastify,
    async listen() {
      const url = await fastify.listen({ host: config.host, port: config.port });
      scheduler = startScheduler(app);
      idle = watchIdle(fastify.server, LIMITS.idleCheckMs, 2, () => releaseIdleMemory(log));
      removeStaleTempFiles(config).catch((err: unknown) => log.warn({ err }, 'could not clean temporary upload files'));
      if (bus) {
        // Other processes forward long-polls of this process's queues here.
        bus.selfUrl = config.internalUrl ?? url;
        queues.directory = bus;
        queues.claimAll();
      }
      return url;
    },
    async close() {
      try {
        await scheduler?.stop();
        idle?.stop();
        // Answer the waiting long-polls first: fastify waits for requests in flight.
        queues.stop();
        await fastify.close();
        // Link previews under way (requests may have started some) finish or time out.
        await Promise.allSettled([...app.previews]);
        closeMail(app);
        await bus?.stop();
        await limiter.close();
        const saved = await saveQueues(db, queues);
        if (saved > 0) log.info({ saved }, 'saved event queues');
      } finally {
        await db.close();
      }
    },
  };
}
