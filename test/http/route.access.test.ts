// What an incoming-webhook bot may call, and the headers every answer carries.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServer, type Account } from '../helpers/server.ts';

test('an incoming-webhook bot may send messages and nothing else: other routes answer 401 as the reference does', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const created = await s.ok('POST', '/api/v1/bots', { full_name: 'Hook', short_name: 'hook', bot_type: 2 });
  const hook: Account = { id: created.user_id, email: 'hook-bot@localhost', apiKey: created.api_key };
  const sent = await s.api('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'alerts', content: 'disk full' }, { as: hook });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const refused = [
    ['GET', '/api/v1/messages', { anchor: 'newest', num_before: 10, num_after: 0 }],
    ['GET', '/api/v1/users', {}],
    ['GET', '/api/v1/users/me', {}],
    ['GET', `/api/v1/messages/${sent.body.id as number}`, {}],
    ['POST', '/api/v1/register', {}],
    ['GET', '/api/v1/streams', {}],
    ['PATCH', `/api/v1/messages/${sent.body.id as number}`, { content: 'changed' }],
    ['POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'hooks' }] }],
  ] as const;
  for (const [method, path, params] of refused) {
    const res = await s.api(method, path, params, { as: hook });
    assert.equal(res.status, 401, `${method} ${path}: ${JSON.stringify(res.body)}`);
    assert.deepEqual(res.body, { result: 'error', msg: 'This API is not available to incoming webhook bots.', code: 'UNAUTHORIZED' });
  }
  const message = await s.server.app.db.kysely.selectFrom('messages').select('content').where('id', '=', sent.body.id as number).executeTakeFirstOrThrow();
  assert.equal(message.content, 'disk full');
  // A generic bot reads as before.
  const generic = await s.ok('POST', '/api/v1/bots', { full_name: 'Gen', short_name: 'gen' });
  const gen: Account = { id: generic.user_id, email: 'gen-bot@localhost', apiKey: generic.api_key };
  assert.equal((await s.api('GET', '/api/v1/users', {}, { as: gen })).status, 200);
});

test('every answer says nosniff and a referrer policy; authenticated JSON answers are not stored; uploads keep their own headers', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const answers = {
    authenticated: await s.api('GET', '/api/v1/users/me', {}),
    anonymous: await s.api('GET', '/api/v1/server_settings', {}, { as: null }),
    refused: await s.api('GET', '/api/v1/users/me', {}, { as: null }),
    badRequest: await s.api('GET', '/api/v1/messages', { anchor: 'nowhere' }),
    notFound: await s.api('GET', '/api/v1/no/such/route', {}),
    // Answered by fastify before routing.
    badUrl: await s.api('GET', '/api/v1/users/%E0%A4%A', {}),
  };
  for (const [name, res] of Object.entries(answers)) {
    assert.equal(res.headers['x-content-type-options'], 'nosniff', name);
    assert.equal(res.headers['referrer-policy'], 'strict-origin-when-cross-origin', name);
  }
  assert.equal(answers.authenticated.headers['cache-control'], 'no-store');
  assert.equal(answers.authenticated.headers['content-type'], 'application/json; charset=utf-8');

  const form = new FormData();
  form.set('filename', new Blob(['<b>hi</b>'], { type: 'text/html' }), 'page.html');
  const auth = 'Basic ' + Buffer.from(`${s.owner.email}:${s.owner.apiKey}`).toString('base64');
  const up = await fetch(`${s.baseUrl}/api/v1/user_uploads`, { method: 'POST', headers: { authorization: auth }, body: form });
  assert.equal(up.headers.get('cache-control'), 'no-store');
  const { uri } = (await up.json()) as { uri: string };
  const file = await fetch(s.baseUrl + uri, { headers: { authorization: auth } });
  assert.equal(file.status, 200);
  assert.equal(file.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(file.headers.get('cache-control'), 'private, max-age=86400');
  assert.equal(file.headers.get('content-security-policy'), "default-src 'none'; sandbox");
  assert.equal(file.headers.get('referrer-policy'), 'strict-origin-when-cross-origin');
});
