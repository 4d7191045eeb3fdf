import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { browserLogin, encodeParams, httpRequest, startServer, type TestServer } from '../helpers/server.ts';
import { deactivateRealm, setTime } from '../helpers/factories.ts';

const DAY = 24 * 3600;

async function sessionRows(s: TestServer) {
  return s.server.app.db.kysely.selectFrom('sessions').selectAll().orderBy('created_at').execute();
}

/** A login post as a browser's form or the app's fetch sends it. */
function postLogin(s: TestServer, username: string, password: string, headers: Record<string, string> = {}) {
  return httpRequest(
    `${s.baseUrl}/accounts/login/`,
    'POST',
    { host: new URL(s.baseUrl).host, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    encodeParams({ username, password }).toString(),
  );
}

function attributes(setCookie: string): string[] {
  return setCookie.split(';').slice(1).map((a) => a.trim().toLowerCase());
}

test('login creates a session row and sets HttpOnly session and readable CSRF cookies', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const res = await postLogin(s, 'OWNER@example.com', 'owner-password');
  assert.equal(res.status, 200);
  assert.deepEqual(JSON.parse(res.text), { result: 'success', msg: '', user_id: s.owner.id, email: 'owner@example.com' });
  const cookies = res.headers['set-cookie'] ?? [];
  const session = cookies.find((c) => c.startsWith('parley_session='))!;
  const csrf = cookies.find((c) => c.startsWith('parley_csrf='))!;
  assert.deepEqual(attributes(session).sort(), [`max-age=${14 * DAY}`, 'path=/', 'httponly', 'samesite=lax'].sort());
  assert.deepEqual(attributes(csrf).sort(), [`max-age=${14 * DAY}`, 'path=/', 'samesite=lax'].sort());
  const rows = await sessionRows(s);
  assert.equal(rows.length, 1);
  assert.equal(rows[0]!.user_id, s.owner.id);
  // Only the token's hash is stored.
  const token = session.split(';')[0]!.slice('parley_session='.length);
  assert.notEqual(rows[0]!.token_hash, token);
  assert.match(rows[0]!.token_hash, /^[0-9a-f]{64}$/);
  assert.equal(rows[0]!.csrf_token, csrf.split(';')[0]!.slice('parley_csrf='.length));
  assert.equal(Number(rows[0]!.expires_at) - Number(rows[0]!.last_used_at), 14 * DAY);
});

test('cookies are Secure when the external scheme is https', async (t) => {
  const s = await startServer({ env: { EXTERNAL_SCHEME: 'https' } });
  t.after(() => s.close());
  const { setCookies } = await browserLogin(s);
  assert.equal(setCookies.length, 2);
  for (const c of setCookies) assert.ok(attributes(c).includes('secure'), c);
});

test('an HTML form login is redirected to the app', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const res = await postLogin(s, 'owner@example.com', 'owner-password', { accept: 'text/html,application/xhtml+xml' });
  assert.equal(res.status, 303);
  assert.equal(res.headers.location, '/');
  assert.equal(res.headers['set-cookie']?.length, 2);
});

test('a wrong password or unknown email is refused with no session and no cookie', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  for (const [username, password] of [['owner@example.com', 'wrong'], ['nobody@example.com', 'owner-password']] as const) {
    const res = await postLogin(s, username, password);
    assert.equal(res.status, 401);
    assert.deepEqual(JSON.parse(res.text), { result: 'error', code: 'AUTHENTICATION_FAILED', msg: 'Your username or password is incorrect' });
    assert.equal(res.headers['set-cookie'], undefined);
    assert.equal(res.headers['www-authenticate'], undefined);
  }
  assert.deepEqual(await sessionRows(s), []);
});

test('a deactivated user cannot log in, and their session stops working', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const browser = await browserLogin(s, alice);
  assert.equal((await browser.request('GET', '/json/users/me')).status, 200);
  await s.ok('DELETE', `/api/v1/users/${alice.id}`);
  const me = await browser.request('GET', '/json/users/me');
  // Deactivation deleted the session: the page is logged out, as after a logout.
  assert.equal(me.status, 401);
  assert.equal(me.body.code, 'UNAUTHORIZED');
  const login = await postLogin(s, alice.email, alice.password!);
  assert.equal(login.status, 401);
  assert.equal(JSON.parse(login.text).code, 'USER_DEACTIVATED');
  assert.equal(login.headers['set-cookie'], undefined);
});

test("a deactivated organization's sessions stop working", async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const browser = await browserLogin(s);
  await deactivateRealm(s);
  const me = await browser.request('GET', '/json/users/me');
  assert.equal(me.status, 401);
  assert.equal(me.body.code, 'REALM_DEACTIVATED');
  assert.equal(me.headers['www-authenticate'], undefined);
});

test('/json serves the API with the session cookie; without one it answers 401 without a Basic challenge', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const browser = await browserLogin(s);
  const me = await browser.request('GET', '/json/users/me');
  assert.equal(me.status, 200);
  assert.equal(me.body.user_id, s.owner.id);
  assert.equal(me.body.api_key, undefined);

  const host = new URL(s.baseUrl).host;
  const anonymous = await httpRequest(`${s.baseUrl}/json/users/me`, 'GET', { host });
  assert.equal(anonymous.status, 401);
  assert.deepEqual(JSON.parse(anonymous.text), { result: 'error', code: 'UNAUTHORIZED', msg: 'Not logged in: API authentication or user session required' });
  assert.equal(anonymous.headers['www-authenticate'], undefined);
  // Basic credentials are not read under /json.
  const basic = 'Basic ' + Buffer.from(`${s.owner.email}:${s.owner.apiKey}`).toString('base64');
  const withBasic = await httpRequest(`${s.baseUrl}/json/users/me`, 'GET', { host, authorization: basic });
  assert.equal(withBasic.status, 401);
  assert.equal(withBasic.headers['www-authenticate'], undefined);
  // /api/v1 keeps its challenge, and does not read the cookie.
  const api = await httpRequest(`${s.baseUrl}/api/v1/users/me`, 'GET', { host, cookie: browser.cookie });
  assert.equal(api.status, 401);
  assert.equal(api.headers['www-authenticate'], 'Basic realm="parley"');
  // A session cookie that names no session is no session.
  const forged = await httpRequest(`${s.baseUrl}/json/users/me`, 'GET', { host, cookie: 'parley_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
  assert.equal(forged.status, 401);
});

test('unsafe methods under /json need the session CSRF token; GET does not', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const browser = await browserLogin(s);
  const csrfError = { result: 'error', code: 'CSRF_FAILED', msg: 'CSRF error: missing or wrong CSRF token' };
  const missing = await browser.request('PATCH', '/json/settings', { full_name: 'Mallory' }, { csrf: null });
  assert.equal(missing.status, 403);
  assert.deepEqual(missing.body, csrfError);
  const wrong = await browser.request('PATCH', '/json/settings', { full_name: 'Mallory' }, { csrf: browser.csrfToken.slice(1) + 'x' });
  assert.equal(wrong.status, 403);
  assert.deepEqual(wrong.body, csrfError);
  const otherLength = await browser.request('POST', '/json/messages', { type: 'stream', to: 'general', topic: 't', content: 'x' }, { csrf: 'short' });
  assert.equal(otherLength.status, 403);
  assert.equal((await s.ok('GET', '/api/v1/users/me')).full_name, 'Olivia Owner');

  const ok = await browser.request('PATCH', '/json/settings', { full_name: 'Olivia Browser' });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal((await browser.request('GET', '/json/users/me')).body.full_name, 'Olivia Browser');
});

test('logout ends the session on the server and clears both cookies', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const browser = await browserLogin(s);
  const other = await browserLogin(s);
  assert.equal((await sessionRows(s)).length, 2);
  const refused = await browser.request('POST', '/accounts/logout/', {}, { csrf: null });
  assert.equal(refused.status, 403);
  const out = await browser.request('POST', '/accounts/logout/');
  assert.equal(out.status, 200);
  assert.deepEqual(out.body, { result: 'success', msg: '' });
  const cleared = out.headers['set-cookie'] ?? [];
  assert.equal(cleared.length, 2);
  for (const c of cleared) assert.ok(attributes(c).includes('max-age=0'), c);
  assert.equal((await sessionRows(s)).length, 1);
  // The old cookie no longer works; the other browser's session does.
  assert.equal((await browser.request('GET', '/json/users/me')).status, 401);
  assert.equal((await other.request('GET', '/json/users/me')).status, 200);
  // Logging out again, with nothing left to end, still succeeds.
  assert.equal((await browser.request('POST', '/accounts/logout/')).status, 200);
});

test('an HTML form logout is redirected to the app', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const browser = await browserLogin(s);
  const res = await httpRequest(`${s.baseUrl}/accounts/logout/`, 'POST', {
    host: new URL(s.baseUrl).host,
    cookie: browser.cookie,
    'x-csrftoken': browser.csrfToken,
    accept: 'text/html',
    'content-type': 'application/x-www-form-urlencoded',
  }, '');
  assert.equal(res.status, 303);
  assert.equal(res.headers.location, '/');
  assert.equal(res.headers['set-cookie']?.length, 2);
  assert.deepEqual(await sessionRows(s), []);
});

test('sessions survive a restart on the same data', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-test-'));
  t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const s1 = await startServer({ dataDir });
  const browser = await browserLogin(s1);
  await s1.close({ keepData: true });
  const s2 = await startServer({ dataDir, databaseUrl: s1.databaseUrl });
  t.after(() => s2.close());
  const res = await httpRequest(`${s2.baseUrl}/json/users/me`, 'GET', { host: new URL(s2.baseUrl).host, cookie: browser.cookie });
  assert.equal(res.status, 200, res.text);
  assert.equal(JSON.parse(res.text).user_id, s2.owner.id);
});

test('an expired session is refused; use renews a session at most once a minute', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const browser = await browserLogin(s);
  const now = Math.floor(Date.now() / 1000);

  // Used just now: no write, no new cookies.
  const fresh = await browser.request('GET', '/json/users/me');
  assert.equal(fresh.headers['set-cookie'], undefined);

  // Last used 13 days ago: still live; this use renews it for 14 days and re-sends the cookies.
  await setTime(s, 'sessions', 'last_used_at', now - 13 * DAY);
  await setTime(s, 'sessions', 'expires_at', now + DAY);
  const renewed = await browser.request('GET', '/json/users/me');
  assert.equal(renewed.status, 200);
  assert.equal(renewed.headers['set-cookie']?.length, 2);
  const row = (await sessionRows(s))[0]!;
  assert.ok(Number(row.last_used_at) >= now);
  assert.ok(Number(row.expires_at) >= now + 14 * DAY);

  await setTime(s, 'sessions', 'expires_at', now - 1);
  const expired = await browser.request('GET', '/json/users/me');
  assert.equal(expired.status, 401);
  assert.equal(expired.body.code, 'UNAUTHORIZED');
  // The next login drops expired rows.
  await browserLogin(s);
  assert.equal((await sessionRows(s)).length, 1);
});

test('register and a long-poll of /json/events work with the cookie', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const browser = await browserLogin(s);
  const reg = await browser.request('POST', '/json/register', {
    apply_markdown: true,
    client_gravatar: false,
    slim_presence: true,
    event_types: ['message'],
    client_capabilities: { notification_settings_null: true, bulk_message_deletion: true, user_avatar_url_field_optional: false, stream_typing_notifications: true, user_settings_object: true, empty_topic_name: true },
  });
  assert.equal(reg.status, 200, JSON.stringify(reg.body));
  const poll = browser.request('GET', '/json/events', { queue_id: reg.body.queue_id, last_event_id: reg.body.last_event_id });
  const alice = await s.createUser('Alice');
  await s.ok('POST', '/api/v1/messages', { type: 'direct', to: [s.owner.id], content: 'hello **browser**' }, alice);
  const got = await poll;
  assert.equal(got.status, 200);
  const events = got.body.events as any[];
  assert.equal(events.length, 1);
  assert.equal(events[0].message.content, '<p>hello <strong>browser</strong></p>');
  const gone = await browser.request('DELETE', '/json/events', { queue_id: reg.body.queue_id });
  assert.equal(gone.status, 200);
});

test('without a session /json/register answers 401 (the app shows its login page)', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const res = await httpRequest(`${s.baseUrl}/json/register`, 'POST', { host: new URL(s.baseUrl).host, 'content-type': 'application/x-www-form-urlencoded' }, '');
  assert.equal(res.status, 401);
  assert.equal(res.headers['www-authenticate'], undefined);
});

test('uploads through /json are fetched with the session cookie', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const browser = await browserLogin(s);
  const form = new FormData();
  form.set('file', new Blob(['hello from the browser'], { type: 'text/plain' }), 'note.txt');
  const headers = { cookie: browser.cookie };
  const noCsrf = await fetch(`${s.baseUrl}/json/user_uploads`, { method: 'POST', headers, body: form });
  assert.equal(noCsrf.status, 403);
  const up = await fetch(`${s.baseUrl}/json/user_uploads`, { method: 'POST', headers: { ...headers, 'x-csrftoken': browser.csrfToken }, body: form });
  assert.equal(up.status, 200);
  const uri = ((await up.json()) as { uri: string }).uri;
  assert.match(uri, /^\/user_uploads\//);
  const file = await fetch(s.baseUrl + uri, { headers });
  assert.equal(file.status, 200);
  assert.equal(await file.text(), 'hello from the browser');
  // Without the cookie (and no credentials) there is no Basic challenge for the browser to meet.
  const anonymous = await fetch(s.baseUrl + uri);
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.headers.get('www-authenticate'), null);
  // Basic still works there, and a wrong Basic is still challenged.
  const basic = await fetch(s.baseUrl + uri, { headers: { authorization: 'Basic ' + Buffer.from(`${s.owner.email}:${s.owner.apiKey}`).toString('base64') } });
  assert.equal(basic.status, 200);
  const wrong = await fetch(s.baseUrl + uri, { headers: { authorization: 'Basic ' + Buffer.from(`${s.owner.email}:nope`).toString('base64') } });
  assert.equal(wrong.status, 401);
  assert.equal(wrong.headers.get('www-authenticate'), 'Basic realm="parley"');
});

test('fetch_api_key answers as before through the shared password check', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const good = await s.api('POST', '/api/v1/fetch_api_key', { username: 'owner@example.com', password: 'owner-password' }, { as: null });
  assert.equal(good.status, 200);
  assert.equal(good.body.api_key, s.owner.apiKey);
  const bad = await s.api('POST', '/api/v1/fetch_api_key', { username: 'owner@example.com', password: 'nope' }, { as: null });
  assert.equal(bad.status, 401);
  assert.equal(bad.body.code, 'AUTHENTICATION_FAILED');
});
