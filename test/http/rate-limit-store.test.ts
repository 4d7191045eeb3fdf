// The two ways of counting, in memory and in Redis alike (Redis is skipped when unreachable).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test, type TestContext } from 'node:test';
import { MemoryStore, RedisStore, ReservingBuckets, type RateLimitStore } from '../../src/http/rate-limit-store.ts';
import { REDIS_URL, redisReachable } from '../helpers/redis.ts';


async function stores(t: TestContext): Promise<[string, RateLimitStore][]> {
  const all: [string, RateLimitStore][] = [['memory', new MemoryStore()]];
  if (await redisReachable()) {
    const redis = new RedisStore(REDIS_URL, `parley-test-${randomBytes(4).toString('hex')}`);
    await redis.connect();
    t.after(() => redis.close());
    all.push(['redis', redis]);
  } else {
    t.diagnostic(`no Redis at ${REDIS_URL}: only the memory store is tested`);
  }
  return all;
}

test('a bucket gives its whole count at once, then one every seconds/count, and says how much is left and when it is full', async (t) => {
  for (const [name, store] of await stores(t)) {
    const rule = { count: 4, seconds: 2 };
    const before = Date.now();
    for (let i = 0; i < 4; i++) {
      const v = await store.bucket('k', rule);
      assert.equal(v.allowed, true, name);
      assert.equal(v.remaining, 3 - i, name);
      assert.ok(Math.abs(v.resetAt - (before + 500 * (i + 1))) < 250, `${name}: reset ${v.resetAt - before}`);
    }
    const refused = await store.bucket('k', rule);
    assert.equal(refused.allowed, false, name);
    assert.equal(refused.remaining, 0);
    assert.ok(refused.retryAfterMs > 250 && refused.retryAfterMs <= 500, `${name}: retry after ${refused.retryAfterMs}`);
    assert.equal((await store.bucket('other', rule)).allowed, true, name);
    await new Promise((r) => setTimeout(r, refused.retryAfterMs + 20));
    assert.equal((await store.bucket('k', rule)).allowed, true, name);
    assert.equal((await store.bucket('k', rule)).allowed, false, name);
  }
});

test('a bucket with a limit far out of reach counts without error (intervals below a microsecond)', async (t) => {
  for (const [name, store] of await stores(t)) {
    for (let i = 0; i < 50; i++) {
      const v = await store.bucket('huge', { count: 1_000_000_000, seconds: 60 });
      assert.equal(v.allowed, true, name);
      assert.ok(v.remaining > 999_999_000, `${name}: ${v.remaining}`);
    }
  }
});

test('a log allows count attempts in any window, exactly; unlog gives one back and clear forgets them all', async (t) => {
  for (const [name, store] of await stores(t)) {
    const rule = { count: 3, seconds: 1 };
    for (let i = 0; i < 3; i++) {
      const v = await store.log('n', rule);
      assert.equal(v.allowed, true, name);
      assert.equal(v.remaining, 2 - i, name);
    }
    const refused = await store.log('n', rule);
    assert.equal(refused.allowed, false, name);
    assert.ok(refused.retryAfterMs > 500 && refused.retryAfterMs <= 1000, `${name}: ${refused.retryAfterMs}`);
    await store.unlog('n');
    assert.equal((await store.log('n', rule)).allowed, true, name);
    assert.equal((await store.log('n', rule)).allowed, false, name);
    await store.clear('n');
    const fresh = await store.log('n', rule);
    assert.equal(fresh.allowed, true, name);
    assert.equal(fresh.remaining, 2, name);
  }
});

/** A RedisStore that counts its reservations (round trips to Redis for request budgets). */
async function countingRedis(t: TestContext, prefix: string): Promise<{ store: RedisStore; reservations: () => number } | null> {
  if (!(await redisReachable())) {
    t.skip(`no Redis at ${REDIS_URL}`);
    return null;
  }
  const store = new RedisStore(REDIS_URL, prefix);
  await store.connect();
  t.after(() => store.close());
  let n = 0;
  const reserve = store.reserve.bind(store);
  store.reserve = (...args) => (n++, reserve(...args));
  return { store, reservations: () => n };
}

test('reserving buckets: two processes near a small limit count one request at a time, exactly, with the same headers as a plain bucket', async (t) => {
  const prefix = `parley-test-${randomBytes(4).toString('hex')}`;
  const one = await countingRedis(t, prefix);
  const two = await countingRedis(t, prefix);
  if (!one || !two) return;
  const [a, b] = [new ReservingBuckets(one.store), new ReservingBuckets(two.store)];
  t.after(() => Promise.all([a.close(), b.close()]));
  const rule = { count: 5, seconds: 60 };
  const seen: [boolean, number][] = [];
  for (let i = 0; i < 7; i++) {
    const v = await (i % 2 ? b : a).bucket('u:1', rule);
    seen.push([v.allowed, v.remaining]);
  }
  assert.deepEqual(seen, [[true, 4], [true, 3], [true, 2], [true, 1], [true, 0], [false, 0], [false, 0]]);
});

test('reserving buckets: a busy key with a large budget costs few round trips; what a process holds goes back when it closes', async (t) => {
  const prefix = `parley-test-${randomBytes(4).toString('hex')}`;
  const one = await countingRedis(t, prefix);
  const two = await countingRedis(t, prefix);
  if (!one || !two) return;
  const a = new ReservingBuckets(one.store);
  const b = new ReservingBuckets(two.store);
  t.after(() => b.close());
  const rule = { count: 10_000, seconds: 86_400 }; // nothing comes back during the test
  let last = 0;
  // Sequential and concurrent requests alike.
  for (let i = 0; i < 500; i++) last = (await a.bucket('u:1', rule)).remaining;
  const together = await Promise.all(Array.from({ length: 500 }, () => a.bucket('u:1', rule)));
  assert.ok(together.every((v) => v.allowed));
  assert.equal(last, 10_000 - 500);
  assert.ok(one.reservations() < 40, `${one.reservations()} reservations for 1,000 requests`);
  // The other process sees what the first used, and after it closes, only what it used.
  await a.close();
  const other = await b.bucket('u:1', rule);
  assert.ok(other.remaining >= 10_000 - 1_001 && other.remaining <= 10_000 - 1_001 + 2, `remaining ${other.remaining}`);
});
