import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserLogin, startServer } from '../helpers/server.ts';

test('GET /users lists members with the User fields', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const { members } = await s.ok('GET', '/api/v1/users', { client_external_avatar: false });
  assert.deepEqual(members.map((m: any) => m.user_id), [s.owner.id, alice.id]);
  const a = members[1];
  assert.equal(a.email, alice.email);
  assert.equal(a.delivery_email, alice.email);
  assert.equal(a.full_name, 'Alice');
  assert.equal(a.role, 400);
  assert.equal(a.is_admin, false);
  assert.equal(a.is_owner, false);
  assert.equal(a.is_guest, false);
  assert.equal(a.is_bot, false);
  assert.equal(a.is_active, true);
  assert.equal(a.bot_type, null);
  assert.match(a.avatar_url, /^https:\/\//);
  assert.match(a.date_joined, /^\d{4}-\d\d-\d\dT/);
  const withExternal = await s.ok('GET', '/api/v1/users');
  assert.equal(withExternal.members[1].avatar_url, null);
});

test('GET /users/me has avatar_version, max_message_id and profile_data', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const me = await s.ok('GET', '/api/v1/users/me');
  assert.equal(me.user_id, s.owner.id);
  assert.equal(me.is_owner, true);
  assert.equal(me.role, 100);
  assert.equal(me.avatar_version, 1);
  assert.equal(me.max_message_id, -1);
  assert.deepEqual(me.profile_data, {});
  const { id } = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 't', content: 'x' });
  assert.equal((await s.ok('GET', '/api/v1/users/me')).max_message_id, id);
});

test('GET /users/{id} and /users/{email}; unknown users are a 400', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  assert.equal((await s.ok('GET', `/api/v1/users/${alice.id}`)).user.full_name, 'Alice');
  const byEmail = await s.ok('GET', `/api/v1/users/${encodeURIComponent(alice.email)}`, { include_custom_profile_fields: true });
  assert.equal(byEmail.user.user_id, alice.id);
  assert.deepEqual(byEmail.user.profile_data, {});
  const missing = await s.api('GET', '/api/v1/users/9999');
  assert.equal(missing.status, 400);
  assert.equal(missing.body.msg, 'No such user');
});

test('POST /users refuses a duplicate email and needs can_create_users', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const dup = await s.api('POST', '/api/v1/users', { email: alice.email.toUpperCase(), password: 'secret123', full_name: 'Again' });
  assert.equal(dup.status, 400);
  assert.match(dup.body.msg, new RegExp(alice.email.replace('.', '\\.')));
  const admin = await s.createUser('Adam', { role: 200 });
  const noPermission = await s.api('POST', '/api/v1/users', { email: 'z@example.com', password: 'secret123', full_name: 'Z' }, { as: admin });
  assert.equal(noPermission.status, 400);
  const badEmail = await s.api('POST', '/api/v1/users', { email: 'not-an-email', password: 'secret123', full_name: 'Z' });
  assert.equal(badEmail.status, 400);
});

test('fetch_api_key refuses a wrong password', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const res = await s.api('POST', '/api/v1/fetch_api_key', { username: 'owner@example.com', password: 'wrong' }, { as: null });
  assert.equal(res.status, 401);
  assert.equal(res.body.code, 'AUTHENTICATION_FAILED');
  const ok = await s.ok('POST', '/api/v1/fetch_api_key', { username: 'OWNER@example.com', password: 'owner-password' });
  assert.equal(ok.api_key, s.owner.apiKey);
});

test('role changes: only owners touch the owner role, the last owner stays, no guest administrators', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const admin = await s.createUser('Adam', { role: 200 });
  const alice = await s.createUser('Alice');
  const byAdmin = await s.api('PATCH', `/api/v1/users/${alice.id}`, { role: 100 }, { as: admin });
  assert.equal(byAdmin.status, 400);
  // The reference's OrganizationOwnerRequiredError.
  assert.equal(byAdmin.body.code, 'UNAUTHORIZED_PRINCIPAL');
  const lastOwner = await s.api('PATCH', `/api/v1/users/${s.owner.id}`, { role: 200 });
  assert.equal(lastOwner.status, 400);
  assert.match(lastOwner.body.msg, /only organization owner/);
  const byMember = await s.api('PATCH', `/api/v1/users/${admin.id}`, { role: 400 }, { as: alice });
  assert.equal(byMember.status, 400);
  await s.ok('PATCH', `/api/v1/users/${alice.id}`, { role: 600 });
  await s.ok('PATCH', `/api/v1/users/${alice.id}`, { full_name: 'Alice Guest' });
  const user = (await s.ok('GET', `/api/v1/users/${alice.id}`)).user;
  assert.equal(user.role, 600);
  assert.equal(user.is_guest, true);
  assert.equal(user.full_name, 'Alice Guest');
  const badRole = await s.api('PATCH', `/api/v1/users/${alice.id}`, { role: 250 });
  assert.equal(badRole.status, 400);
  await s.ok('PATCH', `/api/v1/users/${alice.id}`, { role: 100 });
  await s.ok('PATCH', `/api/v1/users/${s.owner.id}`, { role: 200 });
  assert.equal((await s.ok('GET', `/api/v1/users/${s.owner.id}`)).user.role, 200);
});

test('deactivation refuses the only owner; a deactivated user cannot authenticate until reactivated', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const only = await s.api('DELETE', `/api/v1/users/${s.owner.id}`);
  assert.equal(only.status, 400);
  assert.match(only.body.msg, /only organization owner/);
  const byMember = await s.api('DELETE', `/api/v1/users/${s.owner.id}`, {}, { as: alice });
  assert.equal(byMember.status, 400);
  await s.ok('DELETE', `/api/v1/users/${alice.id}`, { deactivation_notification_comment: 'bye' });
  const refused = await s.api('GET', '/api/v1/users/me', {}, { as: alice });
  assert.equal(refused.status, 401);
  assert.equal(refused.body.code, 'USER_DEACTIVATED');
  assert.equal((await s.ok('GET', `/api/v1/users/${alice.id}`)).user.is_active, false);
  const again = await s.api('DELETE', `/api/v1/users/${alice.id}`);
  assert.equal(again.status, 400);
  await s.ok('POST', `/api/v1/users/${alice.id}/reactivate`);
  assert.equal((await s.ok('GET', '/api/v1/users/me', {}, alice)).user_id, alice.id);
  const twice = await s.api('POST', `/api/v1/users/${alice.id}/reactivate`);
  assert.equal(twice.status, 400);
});

test('user changes publish realm_user events to the realm', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const add = s.published.find((p) => p.event.type === 'realm_user' && p.event.op === 'add');
  assert.equal(add?.event.person.user_id, alice.id);
  assert.deepEqual(add?.userIds.sort(), [s.owner.id, alice.id].sort());
  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/users/${alice.id}`, { full_name: 'Alicia' });
  assert.deepEqual(s.published.map((p) => p.event), [{ type: 'realm_user', op: 'update', person: { user_id: alice.id, full_name: 'Alicia' } }]);
});

test("a deactivation ends the person's open browser long-poll with the event that says so; the next poll is refused", async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const dan = await s.createUser('Dan');
  const browser = await browserLogin(s, dan);
  const queueId = (await browser.request('POST', '/json/register', {})).body.queue_id as string;
  const poll = browser.request('GET', '/json/events', { queue_id: queueId, last_event_id: -1 });
  while (s.server.app.queues!.get(queueId, dan.id).waiter === null) await new Promise((r) => setImmediate(r));

  await s.ok('DELETE', `/api/v1/users/${dan.id}`);
  const answer = await poll;
  assert.equal(answer.status, 200);
  const events = answer.body.events as { id: number; type: string; op?: string; person?: { user_id: number } }[];
  assert.ok(events.some((e) => e.type === 'realm_user' && e.op === 'remove' && e.person?.user_id === dan.id), JSON.stringify(events));
  const next = await browser.request('GET', '/json/events', { queue_id: queueId, last_event_id: events.at(-1)!.id });
  assert.equal(next.status, 401);
});
