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

/** Waits until the queue has a waiting poll (the request got past authentication and is held). */
async function pollHeld(s: TestServer, queueId: string, userId: number): Promise<void> {
  while (s.server.app.queues!.get(queueId, userId).waiter === null) await new Promise((r) => setImmediate(r));
}

test('log out everywhere ends the open long-polls of those sessions at once with 401; a poll with the API key goes on', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const here = await browserLogin(s);
  const elsewhere = await browserLogin(s);
  const browserQueue = (await elsewhere.request('POST', '/json/register', {})).body.queue_id as string;
  const apiQueue = (await s.ok('POST', '/api/v1/register', {})).queue_id as string;
  const browserPoll = elsewhere.request('GET', '/json/events', { queue_id: browserQueue, last_event_id: -1 });
  const apiPoll = s.api('GET', '/api/v1/events', { queue_id: apiQueue, last_event_id: -1 });
  await pollHeld(s, browserQueue, s.owner.id);
  await pollHeld(s, apiQueue, s.owner.id);

  assert.equal((await here.request('POST', PATH)).status, 200);
  // Answered now, not at the next heartbeat: the page shows its login form (as on any 401).
  const cut = await browserPoll;
  assert.equal(cut.status, 401);
  assert.equal(cut.body.code, 'UNAUTHORIZED');
  // The program polling with the API key gets its next event as before.
  await s.ok('POST', '/api/v1/users/me/status', { status_text: 'Still here' });
  const api = await apiPoll;
  assert.equal(api.status, 200);
  assert.ok((api.body.events as { type: string }[]).some((e) => e.type === 'user_status'));
});

test('a new password ends the long-polls of the other sessions, not the one that changed it', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const changer = await browserLogin(s, alice);
  const other = await browserLogin(s, alice);
  const queues = await Promise.all([changer, other].map(async (b) => (await b.request('POST', '/json/register', {})).body.queue_id as string));
  const [changerPoll, otherPoll] = [changer, other].map((b, i) => b.request('GET', '/json/events', { queue_id: queues[i]!, last_event_id: -1 }));
  for (const q of queues) await pollHeld(s, q, alice.id);

  assert.equal((await changer.request('PATCH', '/json/settings', { old_password: alice.password!, new_password: 'a-brand-new-password-1' })).status, 200);
  assert.equal((await otherPoll!).status, 401);
  // The changing browser's poll is still open: it gets the next event.
  await s.ok('POST', '/api/v1/users/me/status', { status_text: 'New password' }, alice);
  const kept = await changerPoll!;
  assert.equal(kept.status, 200);
  assert.ok((kept.body.events as { type: string }[]).some((e) => e.type === 'user_status'));
});
