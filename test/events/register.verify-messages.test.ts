// Verify-action for changes to existing messages: edits and moves, deletion, flags, reactions,
// submessages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServer, type Account, type TestServer } from '../helpers/server.ts';
import { kinds, verifyAction } from '../helpers/verify.ts';

async function send(s: TestServer, to: string, topic: string, content: string, as?: Account): Promise<number> {
  return (await s.ok('POST', '/api/v1/messages', { type: 'stream', to, topic, content }, as)).id as number;
}

async function setup(s: TestServer): Promise<{ bob: Account; general: number; lunch: number }> {
  const bob = await s.createUser('Bob');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'lunch' }], principals: [s.owner.id, bob.id] });
  const id = async (name: string) => (await s.ok('GET', '/api/v1/get_stream_id', { stream: name })).stream_id as number;
  return { bob, general: await id('general'), lunch: await id('lunch') };
}

test('update_message: a content edit with a new mention, a topic move, a stream move', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { bob, lunch } = await setup(s);
  const first = await send(s, 'general', 'plans', 'first');
  const second = await send(s, 'general', 'plans', 'second');
  const edit = await verifyAction(s, bob, () => s.ok('PATCH', `/api/v1/messages/${first}`, { content: 'first, edited' }));
  assert.deepEqual(kinds(edit), ['update_message']);
  const mention = await verifyAction(s, bob, () => s.ok('PATCH', `/api/v1/messages/${second}`, { content: 'hi @**Bob**' }));
  assert.deepEqual(mention[0]!.flags, ['mentioned']);
  const unmention = await verifyAction(s, bob, () => s.ok('PATCH', `/api/v1/messages/${second}`, { content: 'hi Bob' }));
  assert.deepEqual(unmention[0]!.flags, []);
  const topic = await verifyAction(s, bob, () => s.ok('PATCH', `/api/v1/messages/${second}`, { topic: 'later', propagate_mode: 'change_one', send_notification_to_new_thread: false }));
  assert.deepEqual(kinds(topic), ['update_message']);
  const moved = await verifyAction(s, bob, () =>
    s.ok('PATCH', `/api/v1/messages/${first}`, { stream_id: lunch, propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false }),
  );
  assert.deepEqual(kinds(moved), ['update_message']);
});

test('delete_message: bulk and one by one, for an unread stream message and a direct message', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { bob } = await setup(s);
  await send(s, 'general', 'plans', 'one');
  const two = await send(s, 'general', 'plans', 'two');
  await send(s, 'general', 'plans', 'three');
  const bulk = await verifyAction(s, bob, () => s.ok('DELETE', `/api/v1/messages/${two}`));
  assert.deepEqual(kinds(bulk), ['delete_message']);
  const dm = (await s.ok('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify([bob.id]), content: 'psst' })).id as number;
  await s.ok('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify([bob.id]), content: 'later' });
  const single = await verifyAction(s, bob, () => s.ok('DELETE', `/api/v1/messages/${dm}`), { register: { client_capabilities: { user_settings_object: true, notification_settings_null: true, linkifier_url_template: true } } });
  assert.deepEqual(kinds(single), ['delete_message']);
  assert.equal(single[0]!.message_id, dm);
});

test('update_message_flags: read and unread, starred and unstarred', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { bob } = await setup(s);
  const a = await send(s, 'lunch', 'pizza', 'hi @**Bob**');
  const b = await send(s, 'general', 'plans', 'hello');
  const dm = (await s.ok('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify([bob.id]), content: 'psst' })).id as number;
  const read = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/messages/flags', { messages: [a, b, dm], op: 'add', flag: 'read' }, bob));
  assert.deepEqual(kinds(read), ['update_message_flags:add']);
  const unread = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/messages/flags', { messages: [dm, b, a], op: 'remove', flag: 'read' }, bob));
  assert.deepEqual(kinds(unread), ['update_message_flags:remove']);
  const star = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/messages/flags', { messages: [b], op: 'add', flag: 'starred' }, bob));
  assert.deepEqual(kinds(star), ['update_message_flags:add']);
  const unstar = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/messages/flags', { messages: [b], op: 'remove', flag: 'starred' }, bob));
  assert.deepEqual(kinds(unstar), ['update_message_flags:remove']);
  const topic = await verifyAction(s, bob, async () => {
    const { lunch } = { lunch: (await s.ok('GET', '/api/v1/get_stream_id', { stream: 'lunch' })).stream_id as number };
    await s.ok('POST', '/api/v1/mark_topic_as_read', { stream_id: lunch, topic_name: 'pizza' }, bob);
  });
  assert.deepEqual(kinds(topic), ['update_message_flags:add']);
});

test('reaction add and remove (no snapshot state)', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { bob } = await setup(s);
  const id = await send(s, 'general', 'plans', 'react to me');
  const add = await verifyAction(s, bob, () => s.ok('POST', `/api/v1/messages/${id}/reactions`, { emoji_name: 'smile' }));
  assert.deepEqual(kinds(add), ['reaction:add']);
  const remove = await verifyAction(s, bob, () => s.ok('DELETE', `/api/v1/messages/${id}/reactions`, { emoji_name: 'smile' }));
  assert.deepEqual(kinds(remove), ['reaction:remove']);
});

test('submessage: a vote on a poll (no snapshot state)', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { bob } = await setup(s);
  const id = await send(s, 'general', 'lunch', '/poll Lunch?\nPizza\nSushi');
  const vote = JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 });
  const voted = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/submessage', { message_id: id, msg_type: 'widget', content: vote }, bob));
  assert.deepEqual(kinds(voted), ['submessage']);
});

test('muting a stream or a topic with unread messages changes the unread count', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { bob, lunch } = await setup(s);
  await send(s, 'lunch', 'pizza', 'one');
  await send(s, 'lunch', 'pasta', 'two');
  const mute = await verifyAction(s, bob, () =>
    s.ok('POST', '/api/v1/users/me/subscriptions/properties', { subscription_data: [{ stream_id: lunch, property: 'is_muted', value: true }] }, bob),
  );
  assert.deepEqual(kinds(mute), ['subscription:update', 'subscription:update']);
  const unmuteTopic = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/user_topics', { stream_id: lunch, topic: 'pizza', visibility_policy: 2 }, bob));
  assert.deepEqual(kinds(unmuteTopic), ['muted_topics', 'user_topic']);
  const muted = await verifyAction(s, bob, () => send(s, 'lunch', 'pasta', 'three'));
  assert.deepEqual(kinds(muted), ['message']);
  const unmute = await verifyAction(s, bob, () =>
    s.ok('POST', '/api/v1/users/me/subscriptions/properties', { subscription_data: [{ stream_id: lunch, property: 'is_muted', value: false }] }, bob),
  );
  assert.deepEqual(kinds(unmute), ['subscription:update', 'subscription:update']);
  const muteTopic = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/user_topics', { stream_id: lunch, topic: 'pasta', visibility_policy: 1 }, bob));
  assert.deepEqual(kinds(muteTopic), ['muted_topics', 'user_topic']);
});
