// Verify-action for streams and subscriptions (administration, personal settings), topics the
// user mutes or follows, and user groups.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { kinds, verifyAction } from '../helpers/verify.ts';

async function streamId(s: TestServer, name: string): Promise<number> {
  return (await s.ok('GET', '/api/v1/get_stream_id', { stream: name })).stream_id as number;
}

test('stream update: description, name, and privacy for a subscriber and a non-subscriber', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const cat = await s.createUser('Cat');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'lunch' }], principals: [s.owner.id, bob.id] });
  const id = await streamId(s, 'lunch');
  const description = await verifyAction(s, bob, () => s.ok('PATCH', `/api/v1/streams/${id}`, { description: 'Where to **eat**' }));
  // Then the notification bot's notice: the bot joins the realm (its first notice here), the
  // stream gets its first message.
  assert.deepEqual(kinds(description), ['stream:update', 'realm_user:add', 'user_group:add_members', 'user_group:add_members', 'stream:update', 'message']);
  const renamed = await verifyAction(s, cat, () => s.ok('PATCH', `/api/v1/streams/${id}`, { new_name: 'food' }));
  assert.deepEqual(kinds(renamed), ['stream:update']);
  const policy = await verifyAction(s, bob, () => s.ok('PATCH', `/api/v1/streams/${id}`, { stream_post_policy: 2 }));
  assert.deepEqual(kinds(policy).slice(0, 1), ['stream:update']);
  const hidden = await verifyAction(s, cat, () => s.ok('PATCH', `/api/v1/streams/${id}`, { is_private: true }));
  assert.deepEqual(kinds(hidden), ['stream:delete']);
  const privacy = await verifyAction(s, bob, () => s.ok('PATCH', `/api/v1/streams/${id}`, { is_private: false }));
  assert.ok(kinds(privacy).includes('stream:update'));
});

test('stream delete (deactivation) for a subscriber and for a user who never joined', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const cat = await s.createUser('Cat');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'old' }, { name: 'older' }], principals: [s.owner.id, bob.id] });
  const subscriber = await verifyAction(s, bob, async () => s.ok('DELETE', `/api/v1/streams/${await streamId(s, 'old')}`));
  assert.ok(kinds(subscriber).includes('stream:delete'));
  const outsider = await verifyAction(s, cat, async () => s.ok('DELETE', `/api/v1/streams/${await streamId(s, 'older')}`));
  assert.ok(kinds(outsider).includes('stream:delete'));
  // Deactivating the notifications stream unsets that realm setting.
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'announce' }] });
  const announce = await streamId(s, 'announce');
  const set = await verifyAction(s, bob, () => s.ok('PATCH', '/api/v1/realm', { notifications_stream_id: announce }));
  assert.deepEqual(kinds(set), ['realm:update']);
  const unset = await verifyAction(s, bob, () => s.ok('DELETE', `/api/v1/streams/${announce}`));
  assert.deepEqual(kinds(unset), ['stream:delete', 'realm:update']);
});

test('subscription update: color, muting, pinning, notifications', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const id = await streamId(s, 'general');
  for (const [property, value, expected] of [
    ['color', '#ff0000', ['subscription:update']],
    ['is_muted', true, ['subscription:update', 'subscription:update']],
    ['in_home_view', true, ['subscription:update', 'subscription:update']],
    ['pin_to_top', true, ['subscription:update']],
    ['desktop_notifications', true, ['subscription:update']],
    ['audible_notifications', false, ['subscription:update']],
  ] as const) {
    const events = await verifyAction(s, s.owner, () =>
      s.ok('POST', '/api/v1/users/me/subscriptions/properties', { subscription_data: [{ stream_id: id, property, value }] }),
    );
    assert.deepEqual(kinds(events), expected, property);
  }
});

test('user_topic and the legacy muted_topics', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const id = await streamId(s, 'general');
  const muted = await verifyAction(s, s.owner, () => s.ok('POST', '/api/v1/user_topics', { stream_id: id, topic: 'lunch', visibility_policy: 1 }));
  assert.deepEqual(kinds(muted), ['muted_topics', 'user_topic']);
  const followed = await verifyAction(s, s.owner, () => s.ok('POST', '/api/v1/user_topics', { stream_id: id, topic: 'news', visibility_policy: 3 }));
  assert.deepEqual(kinds(followed), ['muted_topics', 'user_topic']);
  const legacy = await verifyAction(s, s.owner, () => s.ok('PATCH', '/api/v1/users/me/subscriptions/muted_topics', { stream_id: id, topic: 'lunch', op: 'remove' }));
  assert.deepEqual(kinds(legacy), ['muted_topics', 'user_topic']);
  const cleared = await verifyAction(s, s.owner, () => s.ok('POST', '/api/v1/user_topics', { stream_id: id, topic: 'news', visibility_policy: 0 }));
  assert.deepEqual(kinds(cleared), ['muted_topics', 'user_topic']);
});

test('user_group add, update, members, subgroups and deactivation', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const cat = await s.createUser('Cat');
  const add = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/user_groups/create', { name: 'chefs', description: 'Cooks', members: [s.owner.id] }));
  assert.deepEqual(kinds(add), ['user_group:add']);
  const chefs = (add[0]!.group as { id: number }).id;
  await s.ok('POST', '/api/v1/user_groups/create', { name: 'bakers', description: 'Bread', members: [cat.id] });
  const { user_groups } = await s.ok('GET', '/api/v1/user_groups');
  const bakers = (user_groups as { id: number; name: string }[]).find((g) => g.name === 'bakers')!.id;
  const update = await verifyAction(s, bob, () => s.ok('PATCH', `/api/v1/user_groups/${chefs}`, { name: 'cooks', description: 'Who cooks' }));
  assert.deepEqual(kinds(update), ['user_group:update']);
  const members = await verifyAction(s, bob, () => s.ok('POST', `/api/v1/user_groups/${chefs}/members`, { add: [bob.id, cat.id], delete: [s.owner.id] }));
  assert.deepEqual(kinds(members), ['user_group:add_members', 'user_group:remove_members']);
  const sub = await verifyAction(s, bob, () => s.ok('POST', `/api/v1/user_groups/${chefs}/subgroups`, { add: [bakers] }));
  assert.deepEqual(kinds(sub), ['user_group:add_subgroups']);
  const unsub = await verifyAction(s, bob, () => s.ok('POST', `/api/v1/user_groups/${chefs}/subgroups`, { delete: [bakers] }));
  assert.deepEqual(kinds(unsub), ['user_group:remove_subgroups']);
  const gone = await verifyAction(s, bob, () => s.ok('POST', `/api/v1/user_groups/${bakers}/deactivate`));
  assert.deepEqual(kinds(gone), ['user_group:update']);
});
