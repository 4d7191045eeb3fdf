// Where rate-limit counts live: in this process's memory, or in Redis so that several processes
// share them. Two ways of counting:
// - a bucket (GCRA, a token bucket kept as one time per key) for request budgets: `count` at once,
//   then one every `seconds / count`;
// - a log of the last `count` times for password attempts, exact over any window of `seconds`,
//   as the reference's Redis limiter counts them.
import type { Redis } from 'ioredis';
import type ioredisTypes from 'ioredis';
import { lazy } from '../lazy.ts';
import type { RateRule } from '../config.ts';

const ioredis = lazy<typeof ioredisTypes>('ioredis');

export interface Verdict {
  allowed: boolean;
  /** Requests left now (0 when refused). */
  remaining: number;
  /** Milliseconds until the next request is allowed (0 when allowed). */
  retryAfterMs: number;
  /** Epoch milliseconds when the key has its whole allowance back. */
  resetAt: number;
}

export interface RateLimitStore {
  /** Takes one request from the key's bucket, unless it is empty. */
  bucket(key: string, rule: RateRule): Verdict | Promise<Verdict>;
  /** Records one attempt in the key's log, unless `count` are already in the window. */
  log(key: string, rule: RateRule): Verdict | Promise<Verdict>;
  /** Forgets the newest attempt of a log (a success that should not count). */
  unlog(key: string): void | Promise<void>;
  /** Forgets the key. */
  clear(key: string): void | Promise<void>;
  close(): Promise<void>;
}

/** Keys a memory store holds before it drops the oldest; swept of spent keys every minute. */
const MAX_KEYS = 200_000;
const SWEEP_MS = 60_000;

export class MemoryStore implements RateLimitStore {
  /**
   * Per key: the time its bucket is full again (GCRA's "theoretical arrival time"), epoch ms.
   * Users are counted by their number id: a number hashes at once, a new string on every lookup.
   */
  readonly #buckets = new Map<string | number, number>();
  /** Per key: its attempts' times, oldest first, and the window they count in. */
  readonly #logs = new Map<string, { window: number; times: number[] }>();
  #nextSweep = Date.now() + SWEEP_MS;

  get size(): number {
    return this.#buckets.size + this.#logs.size;
  }

  bucket(key: string | number, rule: RateRule): Verdict {
    const now = Date.now();
    if (now >= this.#nextSweep || this.#buckets.size >= MAX_KEYS) this.#sweep(now);
    const window = rule.seconds * 1000;
    const interval = window / rule.count;
    const full = this.#buckets.get(key);
    const next = (full === undefined || full < now ? now : full) + interval;
    if (next - now > window) {
      return { allowed: false, remaining: 0, retryAfterMs: next - window - now, resetAt: next - interval };
    }
    this.#buckets.set(key, next);
    return { allowed: true, remaining: Math.floor((now + window - next) / interval), retryAfterMs: 0, resetAt: next };
  }

  log(key: string, rule: RateRule): Verdict {
    const now = Date.now();
    if (now >= this.#nextSweep || this.#logs.size >= MAX_KEYS) this.#sweep(now);
    const window = rule.seconds * 1000;
    let log = this.#logs.get(key);
    if (!log) this.#logs.set(key, (log = { window, times: [] }));
    const times = log.times;
    while (times.length > 0 && times[0]! + window <= now) times.shift();
    if (times.length >= rule.count) {
      const oldest = times[times.length - rule.count]!;
      return { allowed: false, remaining: 0, retryAfterMs: oldest + window - now, resetAt: times[times.length - 1]! + window };
    }
    times.push(now);
    return { allowed: true, remaining: rule.count - times.length, retryAfterMs: 0, resetAt: now + window };
  }

  unlog(key: string): void {
    this.#logs.get(key)?.times.pop();
  }

  clear(key: string): void {
    this.#buckets.delete(key);
    this.#logs.delete(key);
  }

  /** Drops keys that count nothing any more; then, if still too many, the oldest keys. */
  #sweep(now: number): void {
    this.#nextSweep = now + SWEEP_MS;
    for (const [key, full] of this.#buckets) if (full <= now) this.#buckets.delete(key);
    for (const [key, log] of this.#logs) {
      const newest = log.times[log.times.length - 1];
      if (newest === undefined || newest + log.window <= now) this.#logs.delete(key);
    }
    for (const map of [this.#buckets, this.#logs] as Map<unknown, unknown>[]) {
      for (const key of map.keys()) {
        if (map.size < MAX_KEYS) break;
        map.delete(key);
      }
    }
  }

  async close(): Promise<void> {}
}

// Both scripts take the time from Redis, so processes with different clocks count alike.
const NOW = `local t = redis.call('TIME') local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS[1]: the bucket; ARGV: window ms, interval ms. Returns {allowed, remaining, retry ms, reset ms}. */
const BUCKET_SCRIPT = `${NOW}
local window = tonumber(ARGV[1]) local interval = tonumber(ARGV[2])
local full = tonumber(redis.call('GET', KEYS[1]) or '0')
if full < now then full = now end
local nxt = full + interval
if nxt - now > window then return {0, 0, nxt - window - now, full} end
redis.call('SET', KEYS[1], string.format('%.3f', nxt), 'PX', math.max(1, math.ceil(nxt - now)))
return {1, math.floor((now + window - nxt) / interval), 0, nxt}`;

/** KEYS[1]: the log, newest first; ARGV: count, window ms. Returns {allowed, remaining, retry ms, reset ms}. */
const LOG_SCRIPT = `${NOW}
local count = tonumber(ARGV[1]) local window = tonumber(ARGV[2])
local times = redis.call('LRANGE', KEYS[1], 0, count - 1)
local recent = 0
for _, v in ipairs(times) do if tonumber(v) + window > now then recent = recent + 1 end end
if recent >= count then return {0, 0, tonumber(times[count]) + window - now, tonumber(times[1]) + window} end
redis.call('LPUSH', KEYS[1], now)
redis.call('LTRIM', KEYS[1], 0, count - 1)
redis.call('PEXPIRE', KEYS[1], window)
return {1, count - recent - 1, 0, now + window}`;

/**
 * KEYS[1]: the bucket; ARGV: window ms, interval ms, wanted. Takes up to `wanted` requests at once,
 * but never more than a quarter of what is left (at least one): near the limit every process
 * takes one at a time, as without reservations. Returns {taken, remaining, retry ms, reset ms}.
 */
const RESERVE_SCRIPT = `${NOW}
local window = tonumber(ARGV[1]) local interval = tonumber(ARGV[2]) local wanted = tonumber(ARGV[3])
local full = tonumber(redis.call('GET', KEYS[1]) or '0')
if full < now then full = now end
local left = math.floor((now + window - full) / interval + 1e-9)
if left < 1 then return {0, 0, full + interval - window - now, full} end
local taken = math.max(1, math.min(wanted, math.floor(left / 4)))
local nxt = full + taken * interval
redis.call('SET', KEYS[1], string.format('%.3f', nxt), 'PX', math.max(1, math.ceil(nxt - now)))
return {taken, math.floor((now + window - nxt) / interval + 1e-9), 0, nxt}`;

/** KEYS[1]: the bucket; ARGV: ms of requests taken but not used, given back. */
const GIVE_BACK_SCRIPT = `${NOW}
local full = tonumber(redis.call('GET', KEYS[1]) or '0')
local back = full - tonumber(ARGV[1])
if back <= now then redis.call('DEL', KEYS[1]) return 0 end
redis.call('SET', KEYS[1], string.format('%.3f', back), 'PX', math.max(1, math.ceil(back - now)))
return 1`;

type ScriptReply = [number, number, number, number];

interface ScriptedRedis extends Redis {
  parleyBucket(key: string, window: number, interval: number): Promise<ScriptReply>;
  parleyLog(key: string, count: number, window: number): Promise<ScriptReply>;
  parleyReserve(key: string, window: number, interval: number, wanted: number): Promise<ScriptReply>;
  parleyGiveBack(key: string, ms: number): Promise<number>;
}

const verdict = (r: ScriptReply): Verdict => ({ allowed: r[0] === 1, remaining: r[1], retryAfterMs: r[2], resetAt: r[3] });

/** Counts in Redis, one atomic script call per count, shared by every process on that Redis. */
export class RedisStore implements RateLimitStore {
  readonly #redis: ScriptedRedis;
  readonly #prefix: string;

  constructor(url: string, prefix: string) {
    // A request should not wait for Redis to come back: without a connection, commands fail at
    // once and the limiter lets the request through (see RateLimiter).
    const redis = new (ioredis().Redis)(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    redis.defineCommand('parleyBucket', { numberOfKeys: 1, lua: BUCKET_SCRIPT });
    redis.defineCommand('parleyLog', { numberOfKeys: 1, lua: LOG_SCRIPT });
    redis.defineCommand('parleyReserve', { numberOfKeys: 1, lua: RESERVE_SCRIPT });
    redis.defineCommand('parleyGiveBack', { numberOfKeys: 1, lua: GIVE_BACK_SCRIPT });
    this.#redis = redis as ScriptedRedis;
    this.#prefix = `${prefix}:rl:`;
  }

  async connect(): Promise<void> {
    await this.#redis.connect();
  }

  async bucket(key: string, rule: RateRule): Promise<Verdict> {
    const window = rule.seconds * 1000;
    return verdict(await this.#redis.parleyBucket(this.#prefix + key, window, window / rule.count));
  }

  /** Takes up to `wanted` requests from the bucket at once (see RESERVE_SCRIPT); 0 when refused. */
  async reserve(key: string, rule: RateRule, wanted: number): Promise<{ taken: number; verdict: Verdict }> {
    const window = rule.seconds * 1000;
    const r = await this.#redis.parleyReserve(this.#prefix + key, window, window / rule.count, wanted);
    return { taken: r[0], verdict: { allowed: r[0] > 0, remaining: r[1], retryAfterMs: r[2], resetAt: r[3] } };
  }

  /** Gives back `count` requests reserved but not used. */
  async giveBack(key: string, rule: RateRule, count: number): Promise<void> {
    await this.#redis.parleyGiveBack(this.#prefix + key, (count * rule.seconds * 1000) / rule.count);
  }

  async log(key: string, rule: RateRule): Promise<Verdict> {
    return verdict(await this.#redis.parleyLog(this.#prefix + key, rule.count, rule.seconds * 1000));
  }

  async unlog(key: string): Promise<void> {
    await this.#redis.lpop(this.#prefix + key);
  }

  async clear(key: string): Promise<void> {
    await this.#redis.del(this.#prefix + key);
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }
}

/** How long a process keeps requests it reserved from Redis before it gives the rest back. */
const HOLD_MS = 1000;
/** The most requests one reservation takes. */
const MAX_RESERVATION = 1024;

interface Held {
  rule: RateRule;
  /** Requests the reservation took, and those of them not used yet. */
  taken: number;
  tokens: number;
  /** What Redis said was left after the reservation, and when the bucket is full again. */
  remaining: number;
  resetAt: number;
  /** When the unused ones go back. */
  until: number;
  /** The reservation under way, which requests of this key wait for. */
  pending: Promise<void> | null;
}

/**
 * Request budgets in Redis without a round trip per request: a process reserves several requests
 * of a key's bucket at once and hands them out from memory for up to `HOLD_MS`, then gives the
 * unused ones back. A key used once in a while reserves one at a time, exactly as a plain bucket
 * counts; a busy one doubles its reservation while it keeps using them up (up to
 * `MAX_RESERVATION`), and Redis never lets one reservation take more than a quarter of what is
 * left, so near the limit every process counts one request at a time. What a process holds is
 * unusable by the others for at most `HOLD_MS`. The headers say what is left as if the unused
 * reservation were still in the bucket.
 */
export class ReservingBuckets {
  readonly #redis: RedisStore;
  readonly #held = new Map<string, Held>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(redis: RedisStore) {
    this.#redis = redis;
    this.#sweeper = setInterval(() => this.#sweep(Date.now()), HOLD_MS).unref();
  }

  /** Takes one request of the key's bucket: at once from a reservation, or after reserving. */
  bucket(key: string, rule: RateRule): Verdict | Promise<Verdict> {
    const h = this.#held.get(key);
    if (h !== undefined && h.tokens > 0 && h.rule === rule && Date.now() < h.until) return this.#take(h);
    return this.#reserveAndTake(key, rule);
  }

  #take(h: Held): Verdict {
    h.tokens--;
    const interval = (h.rule.seconds * 1000) / h.rule.count;
    return { allowed: true, remaining: h.remaining + h.tokens, retryAfterMs: 0, resetAt: h.resetAt - h.tokens * interval };
  }

  async #reserveAndTake(key: string, rule: RateRule): Promise<Verdict> {
    for (;;) {
      const h = this.#held.get(key);
      if (h?.pending) {
        await h.pending;
        continue;
      }
      const now = Date.now();
      if (h !== undefined && h.tokens > 0 && h.rule === rule && now < h.until) return this.#take(h);
      let wanted = 1;
      if (h !== undefined) {
        // Used up within its time: ask for more; expired with some left: ask for what was used.
        wanted = h.tokens === 0 && now < h.until ? Math.min(MAX_RESERVATION, Math.max(1, h.taken) * 2) : Math.max(1, h.taken - h.tokens);
        this.#giveBack(key, h);
      }
      const answer: { refused: Verdict | null } = { refused: null };
      const held: Held = { rule, taken: 0, tokens: 0, remaining: 0, resetAt: 0, until: 0, pending: null };
      held.pending = this.#redis.reserve(key, rule, wanted).then(
        ({ taken, verdict }) => {
          held.pending = null;
          held.taken = taken;
          held.tokens = taken;
          held.remaining = verdict.remaining;
          held.resetAt = verdict.resetAt;
          held.until = Date.now() + HOLD_MS;
          if (taken === 0) answer.refused = verdict;
        },
        (err: unknown) => {
          this.#held.delete(key);
          throw err;
        },
      );
      this.#held.set(key, held);
      await held.pending;
      if (answer.refused) {
        if (this.#held.get(key) === held) this.#held.delete(key);
        return answer.refused;
      }
      if (held.tokens > 0) return this.#take(held);
      // Requests that waited on the same reservation used it up: reserve again.
    }
  }

  #giveBack(key: string, h: Held): void {
    if (h.tokens > 0) this.#redis.giveBack(key, h.rule, h.tokens).catch(() => undefined);
    h.tokens = 0;
    this.#held.delete(key);
  }

  #sweep(now: number): void {
    for (const [key, h] of this.#held) if (h.pending === null && now >= h.until) this.#giveBack(key, h);
  }

  /** Gives back what is held (at shutdown). */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    await Promise.all(
      [...this.#held].map(([key, h]) => (h.pending === null && h.tokens > 0 ? this.#redis.giveBack(key, h.rule, h.tokens).catch(() => undefined) : undefined)),
    );
    this.#held.clear();
  }
}
