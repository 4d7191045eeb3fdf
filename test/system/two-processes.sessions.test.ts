// Two server processes on one PostgreSQL database, with Redis between them: a browser session made
// through one works through the other, including a long-poll forwarded to its queue's process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { browserLogin, httpRequest, startServer } from '../helpers/server.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

test('a session serves every process: a /json long-poll reaching the other process is forwarded', { skip: pgUrl && redisUrl ? false : 'needs TEST_DATABASE_URL and TEST_REDIS_URL' }, async (t) => {
  const env = { REDIS_URL: redisUrl!, REDIS_PREFIX: `parley_web_${randomBytes(4).toString('hex')}` };
  const a = await startServer({ env });
  const b = await startServer({ env, databaseUrl: a.databaseUrl });
  t.after(async () => {
    await b.close({ keepData: true });
    await a.close();
  });
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
