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

type ScriptReply = [number, number, number, number];

interface ScriptedRedis extends Redis {
  parleyBucket(key: string, window: number, interval: number): Promise<ScriptReply>;
  parleyLog(key: string, count: number, window: number): Promise<ScriptReply>;
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
