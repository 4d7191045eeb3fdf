// Verify-action for the user's own settings, status, alert words, presence and typing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkEvent } from '../helpers/openapi.ts';
import { startServer } from '../helpers/server.ts';
import { kinds, verifyAction } from '../helpers/verify.ts';

test('user_settings update, and its legacy forms for clients without user_settings_object', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const modern = await verifyAction(s, s.owner, () => s.ok('PATCH', '/api/v1/settings', { dense_mode: false, enable_sounds: false }));
  assert.deepEqual(kinds(modern), ['user_settings:update', 'user_settings:update']);
  const legacy = await verifyAction(s, s.owner, () => s.ok('PATCH', '/api/v1/settings', { dense_mode: true, enable_sounds: true }), {
    register: { client_capabilities: {} },
  });
  assert.deepEqual(kinds(legacy), ['user_settings:update', 'update_display_settings', 'user_settings:update', 'update_global_notifications']);
  // A time zone change is also a realm_user update everyone sees.
  const bob = await s.createUser('Bob');
  const tz = await verifyAction(s, bob, () => s.ok('PATCH', '/api/v1/settings', { timezone: 'Europe/Paris' }));
  assert.deepEqual(kinds(tz), ['realm_user:update']);
});

test('user_status: status text and emoji, away, and clearing them', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const set = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/users/me/status', { status_text: 'lunch', emoji_name: 'car' }));
  assert.deepEqual(kinds(set), ['user_status']);
  const away = await verifyAction(s, s.owner, () => s.ok('POST', '/api/v1/users/me/status', { away: true }));
  assert.deepEqual(kinds(away), ['user_settings:update', 'user_status']);
  const clear = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/users/me/status', { status_text: '', emoji_name: '', away: false }));
  assert.deepEqual(kinds(clear), ['user_status']);
  const hidden = await verifyAction(s, bob, () => s.ok('PATCH', '/api/v1/settings', { presence_enabled: true }, bob));
  assert.deepEqual(kinds(hidden), []);
});

test('alert_words: adding and removing replace the whole list', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const add = await verifyAction(s, s.owner, () => s.ok('POST', '/api/v1/users/me/alert_words', { alert_words: ['lunch', 'coffee'] }));
  assert.deepEqual(kinds(add), ['alert_words']);
  const remove = await verifyAction(s, s.owner, () => s.ok('DELETE', '/api/v1/users/me/alert_words', { alert_words: ['lunch'] }));
  assert.deepEqual(kinds(remove), ['alert_words']);
  assert.deepEqual(remove[0]!.alert_words, ['coffee']);
});

test('presence: a user coming online, in the legacy and the slim snapshot', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const cat = await s.createUser('Cat');
  // The first presence in the realm: the snapshot's map is empty, so the client's format decides.
  const slim = await verifyAction(s, s.owner, () => s.ok('POST', '/api/v1/users/me/presence', { status: 'active' }, bob), {
    register: { slim_presence: true },
  });
  assert.deepEqual(kinds(slim), ['presence']);
  const legacy = await verifyAction(s, s.owner, () => s.ok('POST', '/api/v1/users/me/presence', { status: 'active' }, cat));
  assert.deepEqual(kinds(legacy), ['presence']);
});

test('realm_user_settings_defaults update', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const events = await verifyAction(s, s.owner, () => s.ok('PATCH', '/api/v1/realm/user_settings_defaults', { enter_sends: true, emojiset: 'text' }));
  assert.deepEqual(kinds(events), ['realm_user_settings_defaults:update', 'realm_user_settings_defaults:update']);
});

test('typing has no state: its events match the schema and reach the conversation', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const cat = await s.createUser('Cat');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'kitchen' }], principals: [bob.id, s.owner.id] });
  const start = s.published.length;
  await s.ok('POST', '/api/v1/typing', { op: 'start', to: JSON.stringify([bob.id]) });
  await s.ok('POST', '/api/v1/typing', { op: 'stop', to: JSON.stringify([bob.id, cat.id]) });
  const { stream_id } = await s.ok('GET', '/api/v1/get_stream_id', { stream: 'kitchen' });
  await s.ok('POST', '/api/v1/typing', { op: 'start', type: 'stream', stream_id, topic: 'lunch' });
  const typing = s.published.slice(start);
  assert.deepEqual(typing.map((p) => [p.event.op, p.event.message_type, [...p.userIds].sort((a, b) => a - b)]), [
    ['start', 'private', [s.owner.id, bob.id].sort((a, b) => a - b)],
    ['stop', 'private', [s.owner.id, bob.id, cat.id].sort((a, b) => a - b)],
    ['start', 'stream', [s.owner.id, bob.id].sort((a, b) => a - b)],
  ]);
  for (const { event } of typing) assert.deepEqual(checkEvent(event), [], JSON.stringify(event));
  // And the receiving client gets it through its queue, unchanged.
  const seen = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/typing', { op: 'start', to: JSON.stringify([bob.id]) }));
  assert.deepEqual(kinds(seen), ['typing:start']);
});
