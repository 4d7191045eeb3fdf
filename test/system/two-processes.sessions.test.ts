// Two server processes on one PostgreSQL database, with Redis between them: a browser session made
// through one works through the other, including a long-poll forwarded to its queue's process, and
// log out everywhere through one ends at once a long-poll held by the other.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { browserLogin, httpRequest, startServer, type TestServer } from '../helpers/server.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

const needsBoth = { skip: pgUrl && redisUrl ? false : 'needs TEST_DATABASE_URL and TEST_REDIS_URL' };

/** Two server processes on one PostgreSQL database with Redis between them, closed after the test. */
async function twoProcesses(t: TestContext): Promise<[TestServer, TestServer]> {
  const env = { REDIS_URL: redisUrl!, REDIS_PREFIX: `parley_web_${randomBytes(4).toString('hex')}` };
  const a = await startServer({ env });
  const b = await startServer({ env, databaseUrl: a.databaseUrl });
  t.after(async () => {
    await b.close({ keepData: true });
    await a.close();
  });
  return [a, b];
}

test('a session serves every process: a /json long-poll reaching the other process is forwarded', needsBoth, async (t) => {
  const [a, b] = await twoProcesses(t);
  const browser = await browserLogin(a);
  const reg = await browser.request('POST', '/json/register', { event_types: ['message'], apply_markdown: true });
  assert.equal(reg.status, 200, JSON.stringify(reg.body));

  // The same cookie, sent to the other process.
  const onB = (method: string, p: string, body?: string) =>
    httpRequest(`${b.baseUrl}${p}`, method, {
      host: new URL(b.baseUrl).host,
      cookie: browser.cookie,
      ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded', 'x-csrftoken': browser.csrfToken }),
    }, body);
  const poll = onB('GET', `/json/events?queue_id=${encodeURIComponent(reg.body.queue_id as string)}&last_event_id=${String(reg.body.last_event_id)}`);
  await b.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'web', content: 'across processes' });
  const got = await poll;
  assert.equal(got.status, 200, got.text);
  const events = JSON.parse(got.text).events as any[];
  assert.equal(events[0].message.content, '<p>across processes</p>');

  // Logging out through B ends the session for A too.
  assert.equal((await onB('POST', '/accounts/logout/', '')).status, 200);
  assert.equal((await browser.request('GET', '/json/users/me')).status, 401);
});

test('log out everywhere through one process ends a long-poll held by the other at once, with 401', needsBoth, async (t) => {
  const [a, b] = await twoProcesses(t);
  const polling = await browserLogin(a);
  const reg = await polling.request('POST', '/json/register', {});
  const queueId = reg.body.queue_id as string;
  const poll = polling.request('GET', '/json/events', { queue_id: queueId, last_event_id: -1 });
  while (a.server.app.queues!.get(queueId, a.owner.id).waiter === null) await new Promise((r) => setImmediate(r));

  // Another browser of the same person, on the other process.
  const other = await browserLogin(a);
  const out = await httpRequest(`${b.baseUrl}/accounts/logout/everywhere/`, 'POST', { host: new URL(b.baseUrl).host, cookie: other.cookie, 'x-csrftoken': other.csrfToken, 'content-type': 'application/x-www-form-urlencoded' }, '');
  assert.equal(out.status, 200, out.text);
  const cut = await poll;
  assert.equal(cut.status, 401);
  assert.equal(cut.body.code, 'UNAUTHORIZED');
});
