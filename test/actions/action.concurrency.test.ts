// Concurrent requests that change the same rows: each sees the others' committed changes (row
// locks on PostgreSQL; SQLite runs one write transaction at a time), and none fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';

const N = 4;

test('concurrent subscriptions to a new stream create it once', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const results = await Promise.all(Array.from({ length: N }, () => s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Racing' }] })));
  assert.equal(results.filter((r) => Object.keys(r.subscribed).length > 0).length, 1);
  const streams = (await s.ok('GET', '/api/v1/streams')).streams as { name: string }[];
  assert.equal(streams.filter((x) => x.name === 'Racing').length, 1);
  assert.equal(s.published.filter((p) => p.event.type === 'subscription' && p.event.op === 'add').length, 1);
});

test('concurrent subscriptions of one user to one stream subscribe once', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Busy' }] });
  const bob = await s.createUser('Bob');
  const before = s.published.length;
  const results = await Promise.all(Array.from({ length: N }, () => s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Busy' }] }, bob)));
  assert.equal(results.filter((r) => Object.keys(r.subscribed).length > 0).length, 1);
  const adds = s.published.slice(before).filter((p) => p.event.type === 'subscription' && p.event.op === 'add');
  assert.deepEqual(adds.map((p) => p.userIds), [[bob.id]]);
});

test('concurrent edits of one message each keep the one before in the history', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Edits' }] });
  const { id } = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'Edits', topic: 't', content: 'v0' });
  await Promise.all(Array.from({ length: N }, (_x, i) => s.ok('PATCH', `/api/v1/messages/${id}`, { content: `v${i + 1}` })));
  const history = (await s.ok('GET', `/api/v1/messages/${id}/history`)).message_history as { content: string; prev_content?: string }[];
  assert.equal(history.length, N + 1);
  assert.equal(history[0]!.content, 'v0');
  for (let i = 1; i < history.length; i++) assert.equal(history[i]!.prev_content, history[i - 1]!.content, `entry ${i}`);
  assert.deepEqual(history.map((h) => h.content).sort(), ['v0', 'v1', 'v2', 'v3', 'v4']);
});

test('concurrent stars of a message one never received all succeed', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'History' }] });
  const { id } = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'History', topic: 't', content: 'old news' });
  const bob = await s.createUser('Bob');
  await Promise.all(Array.from({ length: N }, () => s.ok('POST', '/api/v1/messages/flags', { messages: [id], op: 'add', flag: 'starred' }, bob)));
  const got = await s.ok('GET', `/api/v1/messages/${id}`, {}, bob);
  assert.deepEqual(got.message.flags, ['read', 'starred', 'historical']);
});

test('concurrent changes of different settings of one user all last', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const changes = [{ enter_sends: true }, { twenty_four_hour_time: true }, { starred_message_counts: false }, { fluid_layout_width: true }];
  await Promise.all(changes.map((c) => s.ok('PATCH', '/api/v1/settings', c)));
  const state = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['user_settings'] });
  for (const c of changes) for (const [k, v] of Object.entries(c)) assert.equal(state.user_settings[k], v, k);
});

test('concurrent presence, status and alert word updates of one user all succeed', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await Promise.all([
    ...Array.from({ length: N }, () => s.ok('POST', '/api/v1/users/me/presence', { status: 'active', ping_only: true })),
    ...Array.from({ length: N }, (_x, i) => s.ok('POST', '/api/v1/users/me/status', { status_text: `busy ${i}` })),
    ...Array.from({ length: N }, () => s.ok('POST', '/api/v1/users/me/alert_words', { alert_words: ['Ärger'] })),
  ]);
  assert.deepEqual((await s.ok('GET', '/api/v1/users/me/alert_words')).alert_words, ['Ärger']);
  assert.equal(s.published.filter((p) => p.event.type === 'alert_words').length, 1);
});

test('concurrent identical reactions and topic mutes answer as they would one after the other', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Reacting' }] });
  const streamId = (await s.ok('GET', '/api/v1/get_stream_id', { stream: 'Reacting' })).stream_id as number;
  const { id } = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: streamId, topic: 't', content: 'x' });
  const reactions = await Promise.all(Array.from({ length: N }, () => s.api('POST', `/api/v1/messages/${id}/reactions`, { emoji_name: 'smile' })));
  assert.deepEqual(reactions.map((r) => r.status).sort(), [200, 400, 400, 400]);
  assert.deepEqual(reactions.filter((r) => r.status === 400).map((r) => r.body.code), ['REACTION_ALREADY_EXISTS', 'REACTION_ALREADY_EXISTS', 'REACTION_ALREADY_EXISTS']);
  await Promise.all(Array.from({ length: N }, () => s.ok('POST', '/api/v1/user_topics', { stream_id: streamId, topic: 'Über', visibility_policy: 1 })));
  const state = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['user_topic'] });
  assert.deepEqual(state.user_topics.map((u: { topic_name: string; visibility_policy: number }) => [u.topic_name, u.visibility_policy]), [['Über', 1]]);
});
