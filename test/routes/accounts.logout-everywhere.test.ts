// "Log out everywhere" (POST /accounts/logout/everywhere/): a browser session ends all of its
// person's sessions, its own included, and clears its cookies; other people's sessions and the
// person's API key keep working; it needs a live session and its CSRF token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserLogin, httpRequest, startServer, type TestServer } from '../helpers/server.ts';

const PATH = '/accounts/logout/everywhere/';

async function sessionUsers(s: TestServer): Promise<number[]> {
  const rows = await s.server.app.db.kysely.selectFrom('sessions').select('user_id').orderBy('user_id').execute();
  return rows.map((r) => Number(r.user_id));
}

test('log out everywhere ends every session of the person, this one too, and nobody else’s; the API key still works', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const here = await browserLogin(s);
  const laptop = await browserLogin(s);
  const phone = await browserLogin(s);
  const alicesBrowser = await browserLogin(s, alice);
  assert.deepEqual(await sessionUsers(s), [s.owner.id, s.owner.id, s.owner.id, alice.id].sort((a, b) => a - b));

  // Without the CSRF token a page of another site could make the request: refused, nothing ends.
  const forged = await here.request('POST', PATH, {}, { csrf: null });
  assert.equal(forged.status, 403);
  assert.equal(forged.body.code, 'CSRF_FAILED');
  assert.equal((await sessionUsers(s)).length, 4);

  const out = await here.request('POST', PATH);
  assert.equal(out.status, 200);
  assert.deepEqual(out.body, { result: 'success', msg: '' });
  const cleared = out.headers['set-cookie'] ?? [];
  assert.equal(cleared.length, 2);
  for (const c of cleared) assert.match(c.toLowerCase(), /max-age=0/);

  assert.deepEqual(await sessionUsers(s), [alice.id]);
  for (const browser of [here, laptop, phone]) {
    const me = await browser.request('GET', '/json/users/me');
    assert.equal(me.status, 401);
    assert.equal(me.body.code, 'UNAUTHORIZED');
  }
  assert.equal((await alicesBrowser.request('GET', '/json/users/me')).status, 200);
  // API keys are not sessions: programs using the owner's key go on working.
  assert.equal((await s.ok('GET', '/api/v1/users/me')).user_id, s.owner.id);
  // Logging in again works as before.
  assert.equal((await (await browserLogin(s)).request('GET', '/json/users/me')).status, 200);
});

test('log out everywhere needs a live session: an ended one, none, or API credentials are refused', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const browser = await browserLogin(s);
  assert.equal((await browser.request('POST', PATH)).status, 200);
  // The same cookie again: its session is gone.
  const again = await browser.request('POST', PATH);
  assert.equal(again.status, 401);
  assert.equal(again.body.code, 'UNAUTHORIZED');

  const host = new URL(s.baseUrl).host;
  const anonymous = await httpRequest(s.baseUrl + PATH, 'POST', { host, 'content-type': 'application/x-www-form-urlencoded' }, '');
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.headers['www-authenticate'], undefined);

  // The route is the browser's: the API (Basic credentials) has no such endpoint.
  const other = await browserLogin(s);
  const api = await s.api('POST', '/api/v1' + PATH);
  assert.equal(api.status, 404);
  assert.equal((await other.request('GET', '/json/users/me')).status, 200);
});

test('an HTML form post of log out everywhere is redirected to the app', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const browser = await browserLogin(s);
  await browserLogin(s);
  const res = await httpRequest(
    s.baseUrl + PATH,
    'POST',
    { host: new URL(s.baseUrl).host, cookie: browser.cookie, 'x-csrftoken': browser.csrfToken, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' },
    '',
  );
  assert.equal(res.status, 303);
  assert.equal(res.headers.location, '/');
  assert.deepEqual(await sessionUsers(s), []);
});
