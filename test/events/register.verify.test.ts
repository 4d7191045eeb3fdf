// Every event type the server emits, checked by verify-action: old state + events == new state.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServer } from '../helpers/server.ts';
import { kinds, verifyAction } from '../helpers/verify.ts';

test('message events: a stream message updates unread counts, max_message_id and the first message id', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'general' }], principals: [bob.id, s.owner.id] });
  const events = await verifyAction(s, bob, () =>
    s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'lunch', content: 'hi bob' }),
  );
  // The stream's first message also sets its first_message_id.
  assert.deepEqual(kinds(events), ['stream:update', 'message']);
  assert.deepEqual(events[1]!.flags, []);
});

test('message events: direct messages, group direct messages and messages to oneself', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const cat = await s.createUser('Cat');
  const dm = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify([bob.id]), content: 'one' }));
  assert.deepEqual(kinds(dm), ['message']);
  const group = await verifyAction(s, bob, () =>
    s.ok('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify([bob.id, cat.id]), content: 'two' }),
  );
  assert.deepEqual(kinds(group), ['message']);
  const self = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify([bob.id]), content: 'me' }, bob));
  assert.deepEqual(self[0]!.flags, ['read']);
});

test('subscription add and peer_add, then remove and peer_remove', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'lunch' }] });
  const added = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'lunch' }] }, bob));
  assert.deepEqual(kinds(added), ['subscription:add']);
  const peer = await verifyAction(s, s.owner, () => s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'lunch' }] }, bob), {
    register: { include_subscribers: true },
  });
  assert.deepEqual(kinds(peer), []);
  const removed = await verifyAction(s, bob, () => s.ok('DELETE', '/api/v1/users/me/subscriptions', { subscriptions: ['lunch'] }, bob));
  assert.deepEqual(kinds(removed), ['subscription:remove']);
  const peerAdd = await verifyAction(s, s.owner, () => s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'lunch' }] }, bob));
  assert.deepEqual(kinds(peerAdd), ['subscription:peer_add']);
  const peerRemove = await verifyAction(s, s.owner, () => s.ok('DELETE', '/api/v1/users/me/subscriptions', { subscriptions: ['lunch'] }, bob));
  assert.deepEqual(kinds(peerRemove), ['subscription:peer_remove']);
});

test('subscription add without notification_settings_null carries booleans', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const events = await verifyAction(s, s.owner, () => s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'new one' }] }), {
    register: { client_capabilities: {} },
  });
  assert.deepEqual(kinds(events), ['stream:create', 'subscription:add']);
  assert.equal((events[1]!.subscriptions as { desktop_notifications: unknown }[])[0]!.desktop_notifications, false);
  assert.equal(events[1]!.notification_defaults, undefined);
});

test('stream create: a public stream reaches other users, a private one only its subscribers and administrators', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const pub = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'open' }] }));
  assert.deepEqual(kinds(pub), ['stream:create', 'subscription:peer_add']);
  const hidden = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], invite_only: true }));
  assert.deepEqual(kinds(hidden), []);
  const admin = await verifyAction(s, s.owner, () =>
    s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'secret2' }], invite_only: true }, bob),
  );
  assert.deepEqual(kinds(admin), ['stream:create', 'subscription:peer_add']);
  const own = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'secret3' }], invite_only: true }, bob));
  assert.deepEqual(kinds(own), ['stream:create', 'subscription:add']);
});

test('realm_user add, update (name and role), remove and reactivation', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  let cat = { id: 0 };
  const add = await verifyAction(s, bob, async () => {
    cat = await s.createUser('Cat');
  });
  // New users join the default streams and their role's system groups.
  assert.deepEqual(kinds(add), ['realm_user:add', 'subscription:peer_add', 'user_group:add_members', 'user_group:add_members']);
  const rename = await verifyAction(s, bob, () => s.ok('PATCH', `/api/v1/users/${cat.id}`, { full_name: 'Catherine' }));
  assert.deepEqual(kinds(rename), ['realm_user:update']);
  const role = await verifyAction(s, bob, () => s.ok('PATCH', `/api/v1/users/${bob.id}`, { role: 300 }));
  assert.deepEqual(kinds(role), ['realm_user:update', 'user_group:remove_members', 'user_group:remove_members', 'user_group:add_members']);
  const remove = await verifyAction(s, bob, () => s.ok('DELETE', `/api/v1/users/${cat.id}`));
  assert.deepEqual(kinds(remove), ['subscription:peer_remove', 'user_group:remove_members', 'user_group:remove_members', 'realm_user:remove']);
  const back = await verifyAction(s, bob, () => s.ok('POST', `/api/v1/users/${cat.id}/reactivate`));
  assert.deepEqual(kinds(back), ['realm_user:add', 'subscription:peer_add', 'user_group:add_members', 'user_group:add_members']);
});
