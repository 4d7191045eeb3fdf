// Rate limits: password guessing, request budgets per user and per address, long-polls with a
// budget of their own, and the cap on a user's event queues. With TEST_REDIS_URL the counts are
// kept in Redis (as with several processes); otherwise in the server's memory.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { createServer } from '../../src/app.ts';
import { createLogger } from '../../src/log.ts';
import { SERVICE_EMOJI_PATH } from '../../src/lib/service-emoji.ts';
import { browserLogin, encodeParams, httpRequest, startServer, type Account, type ApiResponse, type TestServer } from '../helpers/server.ts';

const redisEnv = (): Record<string, string> =>
  process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: `parley-test-${randomBytes(4).toString('hex')}` } : {};

async function limited(env: Record<string, string>): Promise<TestServer> {
  return startServer({ env: { ...redisEnv(), ...env } });
}

function login(s: TestServer, username: string, password: string): Promise<ApiResponse> {
  return s.api('POST', '/api/v1/fetch_api_key', { username, password }, { as: null });
}

/** The reference's 429: code, message, `retry-after` in the body and in the header. */
function assertRateLimited(res: ApiResponse, maxSeconds: number, minSeconds = 1): number {
  assert.equal(res.status, 429, JSON.stringify(res.body));
  assert.equal(res.body.result, 'error');
  assert.equal(res.body.code, 'RATE_LIMIT_HIT');
  assert.equal(res.body.msg, 'API usage exceeded rate limit');
  const after = res.body['retry-after'];
  assert.ok(Number.isInteger(after) && (after as number) >= minSeconds && (after as number) <= maxSeconds, `retry-after ${String(after)}`);
  assert.equal(res.headers['retry-after'], String(after));
  return after as number;
}

test('password guessing: the sixth attempt on a username within 30 minutes is refused, even with the right password; other usernames are not', async (t) => {
  const s = await limited({ RATE_LIMIT_AUTH_BY_USERNAME: '5/1800' });
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  for (let i = 0; i < 5; i++) {
    const res = await login(s, s.owner.email, `wrong-${i}`);
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'AUTHENTICATION_FAILED');
  }
  assertRateLimited(await login(s, s.owner.email, 'owner-password'), 1800, 1790);
  // The username is one, however it is written.
  assertRateLimited(await login(s, ` ${s.owner.email.toUpperCase()}`, 'owner-password'), 1800, 1790);
  const other = await login(s, bob.email, 'pw-Bob-secret');
  assert.equal(other.status, 200);
  assert.equal(other.body.api_key, bob.apiKey);
});

/** The browser's login form post. */
async function webLogin(s: TestServer, username: string, password: string): Promise<ApiResponse> {
  const headers = { host: new URL(s.baseUrl).host, 'content-type': 'application/x-www-form-urlencoded' };
  const res = await httpRequest(`${s.baseUrl}/accounts/login/`, 'POST', headers, encodeParams({ username, password }).toString());
  return { status: res.status, headers: res.headers, body: JSON.parse(res.text) as ApiResponse['body'] };
}

test('password guessing: the web login and fetch_api_key share a username\'s attempts; a refused login makes no session', async (t) => {
  const s = await limited({ RATE_LIMIT_AUTH_BY_USERNAME: '5/1800' });
  t.after(() => s.close());
  for (let i = 0; i < 3; i++) assert.equal((await login(s, s.owner.email, 'wrong')).status, 401);
  for (let i = 0; i < 2; i++) {
    const res = await webLogin(s, s.owner.email, 'wrong');
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'AUTHENTICATION_FAILED');
  }
  const refused = await webLogin(s, s.owner.email, 'owner-password');
  assertRateLimited(refused, 1800, 1790);
  assert.equal(refused.headers['set-cookie'], undefined);
  assert.equal((await s.server.app.db.kysely.selectFrom('sessions').selectAll().execute()).length, 0);
  assertRateLimited(await login(s, s.owner.email, 'owner-password'), 1800, 1790);
});

test('a browser session\'s requests under /json count against its user\'s budget', async (t) => {
  const s = await limited({ RATE_LIMIT_API_BY_USER: '3/60' });
  t.after(() => s.close());
  const session = await browserLogin(s);
  for (let i = 0; i < 2; i++) assert.equal((await session.request('GET', '/json/users/me')).status, 200);
  assert.equal((await s.api('GET', '/api/v1/users/me', {})).status, 200);
  const refused = await session.request('GET', '/json/users/me');
  assertRateLimited(refused, 20, 19);
});

test('password guessing: a right password clears the username\'s count of wrong ones', async (t) => {
  const s = await limited({ RATE_LIMIT_AUTH_BY_USERNAME: '5/1800' });
  t.after(() => s.close());
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 4; i++) assert.equal((await login(s, s.owner.email, 'wrong')).status, 401);
    assert.equal((await login(s, s.owner.email, 'owner-password')).status, 200);
  }
});

test('password guessing: one address trying many usernames is refused after its allowance; right passwords do not use it up', async (t) => {
  const s = await limited({ RATE_LIMIT_AUTH_BY_ADDRESS: '3/1800' });
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  for (let i = 0; i < 5; i++) assert.equal((await login(s, bob.email, 'pw-Bob-secret')).status, 200);
  for (const name of ['a@example.com', 'b@example.com', s.owner.email]) assert.equal((await login(s, name, 'guess')).status, 401);
  assertRateLimited(await login(s, bob.email, 'pw-Bob-secret'), 1800, 1790);
});

test('a user\'s requests: a burst of the limit passes with X-RateLimit headers, the next is refused; other users have their own budget', async (t) => {
  const s = await limited({ RATE_LIMIT_API_BY_USER: '5/60' });
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  for (let i = 0; i < 5; i++) {
    const res = await s.api('GET', '/api/v1/users/me', {}, { as: bob });
    // The bucket is full again 12 seconds per request taken after the answer.
    const now = Date.now() / 1000;
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-ratelimit-limit'], '5');
    assert.equal(res.headers['x-ratelimit-remaining'], String(4 - i));
    const reset = Number(res.headers['x-ratelimit-reset']);
    assert.ok(reset >= now + 12 * (i + 1) - 2 && reset <= now + 12 * (i + 1) + 1, `reset ${reset}, now ${now}`);
  }
  const refused = await s.api('GET', '/api/v1/users/me', {}, { as: bob });
  // One request comes back every 60 / 5 = 12 seconds.
  assertRateLimited(refused, 12, 11);
  assert.equal(refused.headers['x-ratelimit-remaining'], '0');
  assert.equal(refused.headers['x-ratelimit-limit'], '5');
  // Refused requests do nothing: a message send is refused too.
  const send = await s.api('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 't', content: 'x' }, { as: bob });
  assert.equal(send.status, 429);
  assert.equal(await s.server.app.db.kysely.selectFrom('messages').select('id').where('sender_id', '=', bob.id).executeTakeFirst(), undefined);
  const owner = await s.api('GET', '/api/v1/users/me', {});
  assert.equal(owner.status, 200);
});

test('a user\'s budget comes back at its rate after a burst', async (t) => {
  // One request a second, three at once.
  const s = await limited({ RATE_LIMIT_API_BY_USER: '3/3' });
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  for (let i = 0; i < 3; i++) assert.equal((await s.api('GET', '/api/v1/users/me', {}, { as: bob })).status, 200);
  assertRateLimited(await s.api('GET', '/api/v1/users/me', {}, { as: bob }), 1);
  await new Promise((r) => setTimeout(r, 1100));
  assert.equal((await s.api('GET', '/api/v1/users/me', {}, { as: bob })).status, 200);
  assert.equal((await s.api('GET', '/api/v1/users/me', {}, { as: bob })).status, 429);
});

test('long-polls count against a budget of their own, not against the user\'s other requests', async (t) => {
  const s = await limited({ RATE_LIMIT_API_BY_USER: '4/60' });
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const { queue_id } = await s.ok('POST', '/api/v1/register', { event_types: ['message'] }, bob);
  for (let i = 0; i < 4; i++) {
    const res = await s.api('GET', '/api/v1/events', { queue_id, last_event_id: -1, dont_block: true }, { as: bob });
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-ratelimit-remaining'], String(3 - i));
  }
  assertRateLimited(await s.api('GET', '/api/v1/events', { queue_id, last_event_id: -1, dont_block: true }, { as: bob }), 15, 14);
  // The register used one request of four.
  for (let i = 0; i < 3; i++) assert.equal((await s.api('GET', '/api/v1/users/me', {}, { as: bob })).status, 200);
  assert.equal((await s.api('GET', '/api/v1/users/me', {}, { as: bob })).status, 429);
});

test('requests without a user count against their address; refused credentials count too; users are not affected', async (t) => {
  const s = await limited({ RATE_LIMIT_API_BY_ADDRESS: '3/60' });
  t.after(() => s.close());
  const badKey: Account = { ...s.owner, apiKey: 'x'.repeat(32) };
  for (let i = 0; i < 2; i++) {
    const res = await s.api('GET', '/api/v1/users/me', {}, { as: badKey });
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'INVALID_API_KEY');
    assert.equal(res.headers['x-ratelimit-remaining'], String(2 - i));
  }
  const settings = await s.api('GET', '/api/v1/server_settings', {}, { as: null });
  assert.equal(settings.status, 200);
  assert.equal(settings.headers['x-ratelimit-limit'], '3');
  assert.equal(settings.headers['x-ratelimit-remaining'], '0');
  assertRateLimited(await s.api('GET', '/api/v1/server_settings', {}, { as: null }), 20, 19);
  assertRateLimited(await s.api('GET', '/api/v1/users/me', {}, { as: badKey }), 20, 19);
  assert.equal((await s.api('GET', '/api/v1/users/me', {})).status, 200);
});

async function waitForPoll(s: TestServer, queueId: string, userId: number): Promise<void> {
  while (s.server.app.queues!.get(queueId, userId).waiter === null) await new Promise((r) => setTimeout(r, 5));
}

test('a user at the event queue limit who registers again loses the least recently used queue, one without a waiting poll first', async (t) => {
  const s = await limited({ MAX_EVENT_QUEUES_PER_USER: '3' });
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const register = async () => (await s.ok('POST', '/api/v1/register', { event_types: ['message'] }, bob)).queue_id as string;
  const poll = (queue_id: string) => s.api('GET', '/api/v1/events', { queue_id, last_event_id: -1, dont_block: true }, { as: bob });
  const q1 = await register();
  const q2 = await register();
  const q3 = await register();
  assert.equal((await poll(q1)).status, 200);
  const q4 = await register();
  const gone = await poll(q2);
  assert.equal(gone.status, 400);
  assert.equal(gone.body.code, 'BAD_EVENT_QUEUE_ID');
  // q1 waits in a long-poll; q3 and q4 are used after it, but have no poll waiting.
  const waiting = s.api('GET', '/api/v1/events', { queue_id: q1, last_event_id: -1 }, { as: bob });
  await waitForPoll(s, q1, bob.id);
  for (const q of [q3, q4]) assert.equal((await poll(q)).status, 200);
  await register();
  assert.equal((await poll(q3)).body.code, 'BAD_EVENT_QUEUE_ID');
  assert.equal((await poll(q4)).status, 200);
  // Other users keep their queues.
  const { queue_id: ownerQueue } = await s.ok('POST', '/api/v1/register', { event_types: ['message'] });
  assert.equal((await s.api('GET', '/api/v1/events', { queue_id: ownerQueue, dont_block: true })).status, 200);
  await s.ok('DELETE', '/api/v1/events', { queue_id: q1 }, bob);
  assert.deepEqual((await waiting).body.events, []);
});

test('with Redis, processes share the counts: a user\'s budget and a username\'s password attempts', async (t) => {
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl) {
    t.skip('TEST_REDIS_URL is not set');
    return;
  }
  const env = { REDIS_URL: redisUrl, REDIS_PREFIX: `parley-test-${randomBytes(4).toString('hex')}`, RATE_LIMIT_API_BY_USER: '3/60', RATE_LIMIT_AUTH_BY_USERNAME: '2/1800' };
  const s = await startServer({ env });
  const other = await createServer(s.config, { log: createLogger('silent') });
  // The second process goes first: the first one's close drops the test database.
  t.after(async () => {
    await other.close();
    await s.close();
  });
  const otherUrl = await other.listen();
  const bob = await s.createUser('Bob');
  const viaOther = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(otherUrl + path, init);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const auth = { authorization: 'Basic ' + Buffer.from(`${bob.email}:${bob.apiKey}`).toString('base64') };
  assert.equal((await s.api('GET', '/api/v1/users/me', {}, { as: bob })).status, 200);
  assert.equal((await viaOther('/api/v1/users/me', { headers: auth })).status, 200);
  assert.equal((await s.api('GET', '/api/v1/users/me', {}, { as: bob })).status, 200);
  assert.equal((await viaOther('/api/v1/users/me', { headers: auth })).status, 429);
  assert.equal((await s.api('GET', '/api/v1/users/me', {}, { as: bob })).status, 429);

  const wrong = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `username=${encodeURIComponent(s.owner.email)}&password=wrong` };
  assert.equal((await login(s, s.owner.email, 'wrong')).status, 401);
  assert.equal((await viaOther('/api/v1/fetch_api_key', wrong)).status, 401);
  assert.equal((await login(s, s.owner.email, 'owner-password')).status, 429);
  assert.equal((await viaOther('/api/v1/fetch_api_key', wrong)).body.code, 'RATE_LIMIT_HIT');
});

test('images the reference serves outside its API (emoji files, the image proxy) count against no budget', async (t) => {
  const s = await limited({ RATE_LIMIT_API_BY_ADDRESS: '2/60' });
  t.after(() => s.close());
  for (let i = 0; i < 5; i++) {
    const res = await fetch(`${s.baseUrl}${SERVICE_EMOJI_PATH}parley.svg`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-ratelimit-limit'), null);
    await res.arrayBuffer();
  }
  assert.equal((await s.api('GET', '/api/v1/server_settings', {}, { as: null })).headers['x-ratelimit-remaining'], '1');
});
