// Authentication keeps users, realms and sessions between requests (src/http/auth.ts). With two
// servers on one database (PostgreSQL + Redis with TEST_DATABASE_URL, else one SQLite file), a
// change answered by one of them is in force in the other at its very next request: nothing
// either kept authenticates a deactivated user, an old API key, an ended session or a deactivated
// organization.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { createServer, type Server } from '../../src/app.ts';
import { createLogger } from '../../src/log.ts';
import { deleteSession, touchSession } from '../../src/db/queries/sessions.ts';
import { deactivateRealm, setTime } from '../helpers/factories.ts';
import { browserLogin, formRequest, startServer, type Account, type TestServer } from '../helpers/server.ts';

interface Pair {
  a: TestServer;
  b: Server;
  /** A request to the second server. */
  viaB(method: string, path: string, as: Account | null, params?: Record<string, unknown>, headers?: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }>;
  bUrl: string;
}

async function twoServers(t: { after(fn: () => Promise<void>): void }): Promise<Pair> {
  const redis: Record<string, string> = process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: `parley-test-${randomBytes(4).toString('hex')}` } : {};
  const a = await startServer({ env: redis });
  const b = await createServer(a.config, { log: createLogger('silent') });
  // The second server goes first: the first one's close drops the test database.
  t.after(async () => {
    await b.close();
    await a.close();
  });
  const bUrl = await b.listen();
  const viaB: Pair['viaB'] = async (method, path, as, params = {}, headers = {}) => {
    const h: Record<string, string> = { host: new URL(bUrl).host, ...headers };
    if (as) h.authorization = 'Basic ' + Buffer.from(`${as.email}:${as.apiKey}`).toString('base64');
    const res = await formRequest(bUrl + path, method, h, params);
    return { status: res.status, body: JSON.parse(res.text) as Record<string, unknown> };
  };
  return { a, b, viaB, bUrl };
}

test('a user deactivated through one server is refused by the other at its next request', async (t) => {
  const { a, viaB } = await twoServers(t);
  for (let round = 0; round < 5; round++) {
    const bob = await a.createUser(`Bob${round}`);
    // Both servers have authenticated Bob (and kept him).
    for (let i = 0; i < 3; i++) {
      assert.equal((await viaB('GET', '/api/v1/users/me', bob)).status, 200);
      assert.equal((await a.api('GET', '/api/v1/users/me', {}, { as: bob })).status, 200);
    }
    await a.ok('DELETE', `/api/v1/users/${bob.id}`);
    const refused = await viaB('GET', '/api/v1/users/me', bob);
    assert.equal(refused.status, 401, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'USER_DEACTIVATED');
    // Reactivated: let in again at once.
    await a.ok('POST', `/api/v1/users/${bob.id}/reactivate`);
    assert.equal((await viaB('GET', '/api/v1/users/me', bob)).status, 200);
  }
});

test('a regenerated API key: the old one is refused by the other server at once, the new one works there', async (t) => {
  const { a, viaB } = await twoServers(t);
  const bob = await a.createUser('Bob');
  for (let round = 0; round < 5; round++) {
    assert.equal((await viaB('GET', '/api/v1/users/me', bob)).status, 200);
    const { api_key } = await a.ok('POST', '/api/v1/users/me/api_key/regenerate', {}, bob);
    const old = await viaB('GET', '/api/v1/users/me', bob);
    assert.equal(old.status, 401, JSON.stringify(old.body));
    assert.equal(old.body.code, 'INVALID_API_KEY');
    bob.apiKey = api_key as string;
    assert.equal((await viaB('GET', '/api/v1/users/me', bob)).status, 200);
  }
});

test('a role changed through one server is what the other sees at once', async (t) => {
  const { a, viaB } = await twoServers(t);
  const bob = await a.createUser('Bob');
  for (const role of [200, 400, 300, 400]) {
    assert.equal((await viaB('GET', '/api/v1/users/me', bob)).status, 200);
    await a.ok('PATCH', `/api/v1/users/${bob.id}`, { role });
    const me = await viaB('GET', '/api/v1/users/me', bob);
    assert.equal(me.body.role, role);
  }
});

test('a browser session ended through one server is refused by the other at once', async (t) => {
  const { a, viaB, bUrl } = await twoServers(t);
  for (let round = 0; round < 3; round++) {
    const session = await browserLogin(a);
    const viaBSession = () => viaB('GET', '/json/users/me', null, {}, { cookie: session.cookie });
    assert.equal((await viaBSession()).status, 200);
    assert.equal((await session.request('GET', '/json/users/me')).status, 200);
    assert.equal((await viaBSession()).status, 200);
    assert.equal((await session.request('POST', '/accounts/logout/')).status, 200);
    const refused = await viaBSession();
    assert.equal(refused.status, 401, `${bUrl}: ${JSON.stringify(refused.body)}`);
  }
});

test('an organization deactivated through one server refuses the other\'s requests at once', async (t) => {
  const { a, viaB } = await twoServers(t);
  assert.equal((await viaB('GET', '/api/v1/users/me', a.owner)).status, 200);
  // No API deactivates an organization: the first server's own database handle does it.
  await deactivateRealm(a);
  const refused = await viaB('GET', '/api/v1/users/me', a.owner);
  assert.equal(refused.body.code, 'REALM_DEACTIVATED', JSON.stringify(refused.body));
});

test('a session touch drops nothing authentication kept; other writes to sessions do', async (t) => {
  const { a } = await twoServers(t);
  const db = a.server.app.db;
  const writes = db.identityWrites!;
  const before = writes();
  assert.notEqual(before, null);
  await touchSession(db.kysely, 'no-such-hash', 1, 60);
  assert.equal(writes(), before);
  await deleteSession(db.kysely, 'no-such-hash');
  const afterDelete = writes();
  assert.ok(afterDelete !== null && afterDelete > before!);
  await setTime(a, 'sessions', 'expires_at', 0, { token_hash: 'no-such-hash' });
  assert.ok(writes()! > afterDelete);
});
