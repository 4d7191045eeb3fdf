// The long-poll answered before the framework (src/routes/events-poll.ts): it gives the route's
// answers and headers, counts each poll once, waits for the disk, and leaves everything unusual
// (errors included) to the route. Polls it takes are told apart by the budget count it makes.
// On PostgreSQL without Redis nothing is kept for authentication, so it takes none.
import assert from 'node:assert/strict';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { deactivateRealm } from '../helpers/factories.ts';
import { httpRequest, startServer, type Account, type TestServer } from '../helpers/server.ts';

const redisEnv = (): Record<string, string> =>
  process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: `parley-test-${randomBytes(4).toString('hex')}` } : {};

/** A server whose polls answered before the framework are counted in `taken`. */
async function server(env: Record<string, string> = {}): Promise<{ s: TestServer; taken: () => number; fast: boolean }> {
  const s = await startServer({ env: { ...redisEnv(), ...env } });
  const limiter = s.server.app.limiter;
  const countPoll = limiter.countPoll.bind(limiter);
  let taken = 0;
  limiter.countPoll = (user, headers) => {
    const counted = countPoll(user, headers);
    if (counted) taken++;
    return counted;
  };
  return { s, taken: () => taken, fast: s.server.app.db.identityWrites !== null };
}

const authOf = (as: Account) => `Basic ${Buffer.from(`${as.email}:${as.apiKey}`).toString('base64')}`;

/** GET /api/v1/events with the query string exactly as given. */
function poll(s: TestServer, as: Account, query: string) {
  return httpRequest(`${s.baseUrl}/api/v1/events?${query}`, 'GET', { authorization: authOf(as) });
}

/** The headers that may differ between two answers given a moment apart. */
function stable(headers: http.IncomingHttpHeaders): [string, unknown][] {
  return Object.entries(headers).filter(([k]) => !['date', 'x-ratelimit-remaining', 'x-ratelimit-reset'].includes(k));
}

test('a plain poll is answered before the framework with the route\'s bytes and headers', async (t) => {
  const { s, taken, fast } = await server({ RATE_LIMIT_API_BY_USER: '100/60' });
  t.after(() => s.close());
  const { queue_id } = await s.ok('POST', '/api/v1/register', { event_types: ['message'] });
  await s.ok('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify([s.owner.id]), content: 'hello' });
  // With Redis the event reaches the queue a moment after the send's answer: both polls below
  // must find it there.
  const queues = s.server.app.queues!;
  while ((queues.held(queue_id as string, s.owner.id)?.newerThan(-1).length ?? 0) === 0) await new Promise((r) => setTimeout(r, 5));
  const q = encodeURIComponent(queue_id as string);
  const taking = await poll(s, s.owner, `queue_id=${q}&last_event_id=-1&dont_block=true`);
  assert.equal(taken(), fast ? 1 : 0);
  // The route accepts `True` as true; the fast path leaves any such spelling to it.
  const route = await poll(s, s.owner, `queue_id=${q}&last_event_id=-1&dont_block=True`);
  assert.equal(taken(), fast ? 1 : 0);
  assert.equal(taking.status, 200);
  assert.equal(taking.text, route.text);
  assert.match(taking.text, /^\{"result":"success","msg":"","events":\[\{"type":"message",.*"content":"hello".*\],"queue_id":"[^"]+"\}$/);
  assert.deepEqual(stable(taking.headers), stable(route.headers));
  assert.equal(taking.headers['cache-control'], 'no-store');
  assert.equal(taking.headers['x-ratelimit-limit'], '100');
  // Each counted once against the long-poll budget.
  assert.equal(taking.headers['x-ratelimit-remaining'], '99');
  assert.equal(route.headers['x-ratelimit-remaining'], '98');
});

test('a waiting poll is answered when its event arrives; a client that goes away leaves no waiter', async (t) => {
  const { s, taken, fast } = await server();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const { queue_id } = await s.ok('POST', '/api/v1/register', { event_types: ['message'] }, bob);
  const queues = s.server.app.queues!;
  const q = encodeURIComponent(queue_id as string);
  const waiting = poll(s, bob, `queue_id=${q}&last_event_id=-1`);
  while (queues.held(queue_id as string, bob.id)?.waiter == null) await new Promise((r) => setTimeout(r, 5));
  await s.ok('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify([bob.id]), content: 'hi Bob' });
  const answer = JSON.parse((await waiting).text) as { events: { id: number; message: { content: string } }[] };
  assert.deepEqual(
    answer.events.map((e) => [e.id, e.message.content]),
    [[0, 'hi Bob']],
  );
  assert.equal(taken(), fast ? 1 : 0);
  // A poll whose client leaves: its waiter goes, and the next poll gets the next event.
  const req = http.get(`${s.baseUrl}/api/v1/events?queue_id=${q}&last_event_id=0`, { headers: { authorization: authOf(bob) } });
  req.on('error', () => {});
  while (queues.held(queue_id as string, bob.id)?.waiter == null) await new Promise((r) => setTimeout(r, 5));
  req.destroy();
  while (queues.held(queue_id as string, bob.id)?.waiter != null) await new Promise((r) => setTimeout(r, 5));
  await s.ok('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify([bob.id]), content: 'again' });
  const next = JSON.parse((await poll(s, bob, `queue_id=${q}&last_event_id=0`)).text) as typeof answer;
  assert.deepEqual(
    next.events.map((e) => [e.id, e.message.content]),
    [[1, 'again']],
  );
});

test('a poll is not answered before what was committed is on disk', async (t) => {
  const { s, taken, fast } = await server();
  t.after(() => s.close());
  const { queue_id } = await s.ok('POST', '/api/v1/register', { event_types: ['message'] });
  const db = s.server.app.db;
  const sync = db.sync.bind(db);
  let release = () => {};
  const flushed = new Promise<void>((resolve) => (release = resolve));
  db.sync = () => flushed.then(sync);
  let answered = false;
  const answer = poll(s, s.owner, `queue_id=${encodeURIComponent(queue_id as string)}&dont_block=true`).then((res) => ((answered = true), res));
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(answered, false);
  assert.equal(taken(), fast ? 1 : 0);
  release();
  assert.equal((await answer).status, 200);
});

test('polls it does not take go to the route: its errors, its decoding, its unknown parameters', async (t) => {
  const { s, taken } = await server();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const { queue_id } = await s.ok('POST', '/api/v1/register', { event_types: ['message'] }, bob);
  const ownerQueue = (await s.ok('POST', '/api/v1/register', { event_types: ['message'] })).queue_id as string;
  const q = encodeURIComponent(queue_id as string);
  const cases: [string, number, Record<string, unknown>][] = [
    ['queue_id=nope&last_event_id=-1', 400, { code: 'BAD_EVENT_QUEUE_ID', queue_id: 'nope' }],
    [`queue_id=${encodeURIComponent(ownerQueue)}&dont_block=true`, 400, { code: 'BAD_EVENT_QUEUE_ID', queue_id: ownerQueue }],
    [`queue_id=${q}&last_event_id=x`, 400, { code: 'BAD_REQUEST', msg: 'last_event_id is not an integer' }],
    [`queue_id=${q}&last_event_id=99999999999999999999`, 400, { code: 'BAD_REQUEST', msg: 'last_event_id is not an integer' }],
    ['last_event_id=-1', 400, { code: 'REQUEST_VARIABLE_MISSING', var_name: 'queue_id' }],
    [`queue_id=${q}&dont_block=maybe`, 400, { code: 'BAD_REQUEST', msg: 'dont_block is not a boolean' }],
    [`queue_id=${q}&queue_id=%00&dont_block=true`, 400, { code: 'BAD_REQUEST', msg: 'queue_id contains a null byte' }],
    [`queue_id=${q}%ZZ&dont_block=true`, 400, { code: 'BAD_EVENT_QUEUE_ID' }],
    [`queue_id=${q}&last_event_id=%20-1&dont_block=true`, 200, { events: [] }],
    [`queue_id=${q}&dont_block=true&client=x`, 200, { events: [], ignored_parameters_unsupported: ['client'] }],
    [`queue_id=${q}&dont_block=+true`, 200, { events: [] }],
  ];
  for (const [query, status, expected] of cases) {
    const res = await poll(s, bob, query);
    assert.equal(res.status, status, `${query}: ${res.text}`);
    const body = JSON.parse(res.text) as Record<string, unknown>;
    for (const [k, v] of Object.entries(expected)) assert.deepEqual(body[k], v, `${query}: ${res.text}`);
    // Errors come with the budget headers, and a success with no-store, as from the route.
    assert.equal(res.headers['x-ratelimit-limit'], '1000000', query);
    assert.equal(res.headers['cache-control'], status === 200 ? 'no-store' : undefined, query);
  }
  // Credentials it does not accept: the route says why.
  const wrongKey = await poll(s, { ...bob, apiKey: 'x'.repeat(32) }, `queue_id=${q}&dont_block=true`);
  assert.equal(wrongKey.status, 401);
  assert.equal((JSON.parse(wrongKey.text) as { code: string }).code, 'INVALID_API_KEY');
  assert.equal(wrongKey.headers['www-authenticate'], 'Basic realm="parley"');
  assert.equal(taken(), 0);
});

test('a deactivated user or organization is refused, though it polled a moment before', async (t) => {
  const { s, taken, fast } = await server();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const { queue_id } = await s.ok('POST', '/api/v1/register', { event_types: ['message'] }, bob);
  const ownerQueue = (await s.ok('POST', '/api/v1/register', { event_types: ['message'] })).queue_id as string;
  const bobPoll = () => poll(s, bob, `queue_id=${encodeURIComponent(queue_id as string)}&dont_block=true`);
  const ownerPoll = () => poll(s, s.owner, `queue_id=${encodeURIComponent(ownerQueue)}&dont_block=true`);
  assert.equal((await bobPoll()).status, 200);
  assert.equal(taken(), fast ? 1 : 0);
  await s.ok('DELETE', `/api/v1/users/${bob.id}`);
  const refused = await bobPoll();
  assert.equal(refused.status, 401);
  assert.equal((JSON.parse(refused.text) as { code: string }).code, 'USER_DEACTIVATED');
  // The deactivation dropped what authentication kept: the route reads it again, then it is kept.
  assert.equal((await ownerPoll()).status, 200);
  assert.equal(taken(), fast ? 1 : 0);
  assert.equal((await ownerPoll()).status, 200);
  assert.equal(taken(), fast ? 2 : 0);
  await deactivateRealm(s);
  const closed = await ownerPoll();
  assert.equal(closed.status, 401);
  assert.equal((JSON.parse(closed.text) as { code: string }).code, 'REALM_DEACTIVATED');
  assert.equal(taken(), fast ? 2 : 0);
});

test('the long-poll budget: polls it takes count once; a spent budget is refused by the route', async (t) => {
  const { s, taken, fast } = await server({ RATE_LIMIT_API_BY_USER: '3/60' });
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const { queue_id } = await s.ok('POST', '/api/v1/register', { event_types: ['message'] }, bob);
  const query = `queue_id=${encodeURIComponent(queue_id as string)}&last_event_id=-1&dont_block=true`;
  for (let i = 0; i < 3; i++) {
    const res = await poll(s, bob, query);
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-ratelimit-remaining'], String(2 - i));
  }
  assert.equal(taken(), fast ? 3 : 0);
  const refused = await poll(s, bob, query);
  assert.equal(refused.status, 429);
  assert.equal((JSON.parse(refused.text) as { code: string }).code, 'RATE_LIMIT_HIT');
  assert.equal(refused.headers['x-ratelimit-remaining'], '0');
  assert.ok(Number(refused.headers['retry-after']) > 0);
  assert.equal(taken(), fast ? 3 : 0);
});

test('once the queues have stopped (the server is closing), polls go to the route', async (t) => {
  const { s, taken } = await server();
  t.after(() => s.close());
  const { queue_id } = await s.ok('POST', '/api/v1/register', { event_types: ['message'] });
  s.server.app.queues!.stop();
  assert.equal(s.server.app.queues!.held(queue_id as string, s.owner.id), null);
  assert.equal((await poll(s, s.owner, `queue_id=${encodeURIComponent(queue_id as string)}&dont_block=true`)).status, 200);
  assert.equal(taken(), 0);
});
