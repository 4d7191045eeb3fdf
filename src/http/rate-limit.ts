// Rate limits, as the reference applies them:
// - every request counts against its user's budget (`RATE_LIMIT_API_BY_USER`), or, without a
//   user, against its client address's (`RATE_LIMIT_API_BY_ADDRESS`); the answer carries
//   X-RateLimit-Limit/-Remaining/-Reset, and an empty budget answers 429 RATE_LIMIT_HIT;
// - long-polls (GET and DELETE /events) count against a budget of their own in the process that
//   serves them, as the reference's event server keeps its own in-memory counts: a client's
//   polling does not use up its user's budget for everything else;
// - images the reference serves outside its API (custom emoji files, the image proxy) count
//   against nothing;
// - password checks count against the username (`RATE_LIMIT_AUTH_BY_USERNAME`) and the client
//   address (`RATE_LIMIT_AUTH_BY_ADDRESS`); a correct password clears the username's count.
// With REDIS_URL the counts are shared by every process (request budgets through reservations of
// several requests at once when a key is busy, see ReservingBuckets); otherwise they live in this one.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config, RateLimitRules, RateRule } from '../config.ts';
import type { User } from '../db/schema.ts';
import { ApiError, rateLimitHit } from '../lib/errors.ts';
import type { Logger } from '../log.ts';
import { MemoryStore, RedisStore, ReservingBuckets, type RateLimitStore, type Verdict } from './rate-limit-store.ts';

/**
 * Which budget a route's requests count against: the user's (or address's), the long-poll one,
 * or none (images that the reference serves as static files or through a separate proxy).
 */
export type RequestBucket = 'api' | 'events' | 'none';

/** The reference's 429: `retry-after` in the body and the Retry-After header (errors.ts). */
export function rateLimited(retryAfterMs: number): ApiError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return rateLimitHit(seconds);
}

/** Sets the reference's budget headers; throws RATE_LIMIT_HIT when the request was refused. */
function answer(reply: FastifyReply, rule: RateRule, v: Verdict): void {
  const headers: Record<string, string> = {};
  budgetHeaders(headers, rule, v);
  reply.headers(headers);
  if (!v.allowed) throw rateLimited(v.retryAfterMs);
}

/** The reference's budget headers of a verdict, into `headers`. */
function budgetHeaders(headers: Record<string, string>, rule: RateRule, v: Verdict): void {
  headers['x-ratelimit-limit'] = limitHeader(rule);
  headers['x-ratelimit-remaining'] = String(v.remaining);
  headers['x-ratelimit-reset'] = String(Math.ceil(v.resetAt / 1000));
}

const limitHeaders = new WeakMap<RateRule, string>();

function limitHeader(rule: RateRule): string {
  let header = limitHeaders.get(rule);
  if (header === undefined) limitHeaders.set(rule, (header = String(rule.count)));
  return header;
}

export class RateLimiter {
  readonly #rules: RateLimitRules;
  /** Redis when configured, else `#memory`. */
  readonly #shared: RateLimitStore;
  /** Request budgets in Redis, counted from reservations (no round trip for most requests). */
  readonly #reserving: ReservingBuckets | null;
  readonly #memory = new MemoryStore();
  /** The long-poll budgets of this process, by user id. */
  readonly #events = new MemoryStore();
  readonly #log: Logger;
  #lastWarning = 0;

  private constructor(rules: RateLimitRules, log: Logger, redis: RedisStore | null) {
    this.#rules = rules;
    this.#log = log;
    this.#reserving = redis && new ReservingBuckets(redis);
    this.#shared = redis ?? this.#memory;
  }

  /** A limiter on Redis when the config names one (connected before it is returned). */
  static async start(config: Config, log: Logger): Promise<RateLimiter> {
    let redis: RedisStore | null = null;
    if (config.redisUrl) {
      redis = new RedisStore(config.redisUrl, config.redisPrefix);
      await redis.connect();
    }
    return new RateLimiter(config.rateLimits, log, redis);
  }

  /** A limiter in this process's memory only (commands that do not serve). */
  static inMemory(config: Config, log: Logger): RateLimiter {
    return new RateLimiter(config.rateLimits, log, null);
  }

  /**
   * Counts a request that passed authentication (`user` null: a request without credentials).
   * Returns a promise only when the count is in Redis, so the in-memory path adds no await.
   */
  request(http: FastifyRequest, reply: FastifyReply, user: User | null, bucket: RequestBucket): void | Promise<void> {
    const rule = user ? this.#rules.apiByUser : this.#rules.apiByAddress;
    if (rule === null || bucket === 'none') return;
    if (user && bucket === 'events') return answer(reply, rule, this.#events.bucket(user.id, rule));
    if (this.#reserving === null) return answer(reply, rule, this.#memory.bucket(user ? user.id : `a:${http.ip}`, rule));
    const v = this.#reserving.bucket(user ? `u:${user.id}` : `a:${http.ip}`, rule);
    if (!(v instanceof Promise)) return answer(reply, rule, v);
    return v.then(
      (verdict) => answer(reply, rule, verdict),
      (err: unknown) => this.#unavailable(err),
    );
  }

  /**
   * Counts a user's long-poll answered outside the route layer (routes/events-poll.ts), putting
   * the budget headers `request` would set into `headers`; false when the budget is spent, which
   * counts nothing, so that `request` may count the poll again and refuse it.
   */
  countPoll(user: User, headers: Record<string, string>): boolean {
    const rule = this.#rules.apiByUser;
    if (rule === null) return true;
    const v = this.#events.bucket(user.id, rule);
    if (!v.allowed) return false;
    budgetHeaders(headers, rule, v);
    return true;
  }

  /** Counts a request whose credentials were refused against its address (guessing API keys). */
  async refusedCredentials(http: FastifyRequest, reply: FastifyReply): Promise<void> {
    const rule = this.#rules.apiByAddress;
    if (rule === null) return;
    let v: Verdict;
    try {
      v = await (this.#reserving ?? this.#shared).bucket(`a:${http.ip}`, rule);
    } catch (err) {
      return this.#unavailable(err);
    }
    answer(reply, rule, v);
  }

  /**
   * Runs a password check under the password limits: RATE_LIMIT_HIT, without checking, when the
   * username or the address has used up its attempts; `check` returns undefined for a wrong
   * password, which counts, or what it authenticated, which clears the username's count (as the
   * reference does) and gives the address its attempt back.
   */
  async passwordAttempt<T>(http: FastifyRequest, realmId: number, username: string, check: () => Promise<T | undefined>): Promise<T | undefined> {
    const { authByUsername: byName, authByAddress: byAddress } = this.#rules;
    const nameKey = `n:${realmId}:${username.trim().toLowerCase()}`;
    const addressKey = `na:${http.ip}`;
    try {
      for (const [key, rule] of [[addressKey, byAddress], [nameKey, byName]] as const) {
        if (rule === null) continue;
        const v = await this.#shared.log(key, rule);
        if (!v.allowed) throw rateLimited(v.retryAfterMs);
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      this.#unavailable(err);
    }
    const result = await check();
    if (result !== undefined) {
      try {
        if (byName) await this.#shared.clear(nameKey);
        if (byAddress) await this.#shared.unlog(addressKey);
      } catch (err) {
        this.#unavailable(err);
      }
    }
    return result;
  }

  /** Without its store (Redis down), the limiter lets requests through, and says so now and then. */
  #unavailable(err: unknown): void {
    const now = Date.now();
    if (now - this.#lastWarning < 60_000) return;
    this.#lastWarning = now;
    this.#log.warn({ err }, 'rate limits are not applied: their store is unavailable');
  }

  async close(): Promise<void> {
    await this.#reserving?.close();
    await this.#shared.close();
  }
}
