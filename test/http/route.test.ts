import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { checkCreateRealm } from '../../src/actions/realms.ts';
import { deactivateRealm } from '../helpers/factories.ts';

const auth = (email: string, key: string) => 'Basic ' + Buffer.from(`${email}:${key}`).toString('base64');

test('unknown parameters are listed in ignored_parameters_unsupported', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const res = await s.ok('GET', '/api/v1/users/me', { bogus: 1, other: 'x' });
  assert.deepEqual(res.ignored_parameters_unsupported, ['bogus', 'other']);
  const none = await s.ok('GET', '/api/v1/users/me');
  assert.equal('ignored_parameters_unsupported' in none, false);
});

test('parameters arrive in multipart bodies too', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const form = new FormData();
  form.set('type', 'stream');
  form.set('to', '"general"');
  form.set('subject', 'via multipart');
  form.set('content', 'hello');
  const res = await fetch(`${s.baseUrl}/api/v1/messages`, { method: 'POST', body: form, headers: { authorization: auth(s.owner.email, s.owner.apiKey) } });
  const body = (await res.json()) as any;
  assert.equal(res.status, 200, JSON.stringify(body));
  const got = await s.ok('GET', '/api/v1/messages', { anchor: body.id, num_before: 0, num_after: 0 });
  assert.equal(got.messages[0].subject, 'via multipart');
});

test('a realm with a subdomain is chosen by the Host header; keys do not cross realms', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const r = await checkCreateRealm(s.server.app, { name: 'Acme', subdomain: 'acme', ownerEmail: 'boss@acme.test', ownerName: 'Boss', ownerPassword: null });
  const boss = { id: r.userId, email: 'boss@acme.test', apiKey: r.apiKey };
  const port = new URL(s.baseUrl).port;
  const me = await s.api('GET', '/api/v1/users/me', {}, { as: boss, host: `acme.localhost:${port}` });
  assert.equal(me.status, 200);
  assert.equal(me.body.email, 'boss@acme.test');
  const wrongRealm = await s.api('GET', '/api/v1/users/me', {}, { as: boss });
  assert.equal(wrongRealm.status, 401);
  assert.equal(wrongRealm.body.code, 'INVALID_API_KEY');
  const settings = await s.api('GET', '/api/v1/server_settings', {}, { as: null, host: `acme.localhost:${port}` });
  assert.equal(settings.body.realm_name, 'Acme');
  assert.equal(settings.body.realm_url, 'http://acme.localhost');
  const nowhere = await s.api('GET', '/api/v1/users/me', {}, { as: boss, host: `nope.localhost:${port}` });
  assert.equal(nowhere.status, 404);
});

test('a deactivated realm refuses its users', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await deactivateRealm(s);
  const res = await s.api('GET', '/api/v1/users/me');
  assert.equal(res.status, 401);
  assert.equal(res.body.code, 'REALM_DEACTIVATED');
});

test('unknown paths get a JSON 404; wrong types get a 400 naming the parameter', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const res = await s.api('GET', '/api/v1/nothing/here');
  assert.equal(res.status, 404);
  assert.equal(res.body.result, 'error');
  const badInt = await s.api('GET', '/api/v1/messages', { anchor: 'newest', num_before: 'lots', num_after: 0 });
  assert.equal(badInt.status, 400);
  assert.equal(badInt.body.msg, 'num_before is not an integer');
  const badBool = await s.api('GET', '/api/v1/streams', { include_public: 'maybe' });
  assert.equal(badBool.status, 400);
  const tooMany = await s.api('GET', '/api/v1/messages', { anchor: 'newest', num_before: 4000, num_after: 1001 });
  assert.equal(tooMany.status, 400);
  const badNarrow = await s.api('GET', '/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'color', operand: 'blue' }] });
  assert.equal(badNarrow.status, 400);
  assert.match(badNarrow.body.msg, /Invalid narrow operator/);
});

test('anchors: oldest, numeric with and without include_anchor, found flags', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const ids: number[] = [];
  for (let i = 0; i < 5; i++) ids.push((await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'a', content: `m${i}` })).id);
  const narrow = [['stream', 'general']];
  const oldest = await s.ok('GET', '/api/v1/messages', { anchor: 'oldest', num_before: 0, num_after: 2, narrow });
  assert.deepEqual(oldest.messages.map((m: any) => m.id), ids.slice(0, 2));
  assert.equal(oldest.found_oldest, true);
  assert.equal(oldest.found_newest, false);
  const mid = await s.ok('GET', '/api/v1/messages', { anchor: ids[2], num_before: 1, num_after: 1, narrow });
  assert.deepEqual(mid.messages.map((m: any) => m.id), ids.slice(1, 4));
  assert.equal(mid.found_anchor, true);
  assert.equal(mid.anchor, ids[2]);
  const excl = await s.ok('GET', '/api/v1/messages', { anchor: ids[2], num_before: 1, num_after: 1, include_anchor: false, narrow });
  assert.deepEqual(excl.messages.map((m: any) => m.id), [ids[1], ids[3]]);
  assert.equal(excl.found_anchor, false);
  const newest = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow });
  assert.deepEqual(newest.messages.map((m: any) => m.id), ids);
  assert.equal(newest.found_newest, true);
  assert.equal(newest.found_oldest, true);
  assert.equal(newest.history_limited, false);
  const raw = await s.ok('GET', '/api/v1/messages', { anchor: ids[0], num_before: 0, num_after: 0, apply_markdown: false });
  assert.equal(raw.messages[0].content, 'm0');
  assert.equal(raw.messages[0].content_type, 'text/x-markdown');
});
