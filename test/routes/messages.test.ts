import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';

test('server_settings answers without credentials', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const res = await s.api('GET', '/api/v1/server_settings', {}, { as: null });
  assert.equal(res.status, 200);
  assert.equal(res.body.service_feature_level, 186);
  assert.equal(res.body.realm_name, 'Test Org');
});

test('a newcomer creates a user, fetches their key, creates a stream and both exchange messages', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const sub = await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'design', description: 'Design talk' }], principals: [alice.id] });
  assert.deepEqual(sub.subscribed, { [alice.email]: ['design'] });
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'design' }] });
  const m1 = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'logo', content: 'Hello **Alice**' });
  const m2 = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'logo', content: 'Hi <b>there</b>' }, alice);
  const res = await s.ok('GET', '/api/v1/messages', {
    anchor: 'newest',
    num_before: 10,
    num_after: 0,
    narrow: [{ operator: 'stream', operand: 'design' }, { operator: 'topic', operand: 'logo' }],
  }, alice);
  assert.deepEqual(res.messages.map((m: any) => m.id), [m1.id, m2.id]);
  assert.equal(res.found_newest, true);
  assert.equal(res.found_oldest, true);
  assert.equal(res.messages[1].content, '<p>Hi &lt;b&gt;there&lt;/b&gt;</p>');
  assert.equal(res.messages[0].sender_id, s.owner.id);
  assert.deepEqual(res.messages[1].flags, ['read']);
  assert.deepEqual(res.messages[0].flags, []);
});

test('direct messages reach both users and nobody else', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  const { id } = await s.ok('POST', '/api/v1/messages', { type: 'direct', to: [alice.id], content: 'psst' });
  const got = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [['dm', alice.email]] });
  assert.deepEqual(got.messages.map((m: any) => m.id), [id]);
  const forAlice = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'is', operand: 'dm' }] }, alice);
  assert.equal(forAlice.messages.length, 1);
  assert.deepEqual(forAlice.messages[0].display_recipient.map((u: any) => u.id).sort(), [s.owner.id, alice.id].sort());
  const forBob = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'is', operand: 'dm' }] }, bob);
  assert.equal(forBob.messages.length, 0);
});

test('missing and wrong credentials are refused with 401', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const none = await s.api('GET', '/api/v1/users/me', {}, { as: null });
  assert.equal(none.status, 401);
  assert.equal(none.body.code, 'UNAUTHORIZED');
  const wrong = await s.api('GET', '/api/v1/users/me', {}, { as: { id: 0, email: s.owner.email, apiKey: 'nope' } });
  assert.equal(wrong.status, 401);
  assert.equal(wrong.body.code, 'INVALID_API_KEY');
});

test('errors: unknown stream, member calling an admin operation, long topic, malformed JSON', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const unknown = await s.api('POST', '/api/v1/messages', { type: 'stream', to: 'nowhere', topic: 't', content: 'x' });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.code, 'STREAM_DOES_NOT_EXIST');
  const notAdmin = await s.api('POST', '/api/v1/users', { email: 'x@example.com', password: 'secret123', full_name: 'X' }, { as: alice });
  assert.equal(notAdmin.status, 400);
  // The reference's OrganizationAdministratorRequiredError (spec: Authentication, item 2).
  assert.equal(notAdmin.body.code, 'UNAUTHORIZED_PRINCIPAL');
  const longTopic = await s.api('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'x'.repeat(61), content: 'x' });
  assert.equal(longTopic.status, 400);
  assert.match(longTopic.body.msg, /Topic too long/);
  const badJson = await s.api('GET', '/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: '[{' });
  assert.equal(badJson.status, 400);
  assert.equal(badJson.body.code, 'BAD_REQUEST');
  const missing = await s.api('GET', '/api/v1/messages', { anchor: 'newest', num_after: 0 });
  assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
  assert.equal(missing.body.var_name, 'num_before');
});

test('sending a stream message publishes a message event to its subscribers with their flags', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  s.published.length = 0;
  const { id } = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'hi', content: 'hello' });
  const events = s.published.filter((p) => p.event.type === 'message');
  assert.deepEqual(
    events.map((e) => [e.event.message.id, e.event.flags, e.userIds]),
    [
      [id, ['read'], [s.owner.id]],
      [id, [], [alice.id]],
    ],
  );
});

test('a topic wildcard mention flags those who took part in the topic, its sender too, and no other subscriber', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  const carol = await s.createUser('Carol');
  await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'plans', content: 'first' }, alice);
  await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'elsewhere', content: 'not here' }, carol);
  s.published.length = 0;
  const { id } = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'Plans', content: '@**topic** ready?' }, bob);
  const flagsOf = new Map<number, string[]>();
  for (const e of s.published.filter((p) => p.event.type === 'message')) for (const u of e.userIds) flagsOf.set(u, e.event.flags);
  assert.deepEqual(flagsOf.get(alice.id), ['topic_wildcard_mentioned', 'wildcard_mentioned']);
  assert.deepEqual(flagsOf.get(bob.id), ['read', 'topic_wildcard_mentioned', 'wildcard_mentioned']);
  assert.deepEqual(flagsOf.get(carol.id), []);
  assert.deepEqual(flagsOf.get(s.owner.id), []);
  // What is stored says the same.
  for (const [user, flags] of [[alice, ['topic_wildcard_mentioned', 'wildcard_mentioned']], [bob, ['read', 'topic_wildcard_mentioned', 'wildcard_mentioned']], [carol, []]] as const) {
    const got = await s.ok('GET', '/api/v1/messages', { anchor: id, num_before: 0, num_after: 0 }, user);
    assert.deepEqual(got.messages[0].flags, flags, user.email);
  }
});

test("a stream message's event links its topic with the linkifiers its content was rendered with, as a fetch does", async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'general' }] });
  await s.ok('POST', '/api/v1/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/acme/app/issues/{id}' });
  s.published.length = 0;
  const { id } = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'bug #42', content: 'see #7' });
  const event = s.published.find((p) => p.event.type === 'message')!.event;
  const links = [{ text: '#42', url: 'https://github.com/acme/app/issues/42' }];
  assert.deepEqual(event.message.topic_links, links);
  assert.match(event.message.content, /href="https:\/\/github.com\/acme\/app\/issues\/7"/);
  const fetched = await s.ok('GET', `/api/v1/messages/${id}`);
  assert.deepEqual(fetched.message.topic_links, links);
});
