import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { firstMessageIdSince } from '../../src/db/queries/streams.ts';
import { setTime } from '../helpers/factories.ts';

test('creating a private stream with options; outsiders cannot see it', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  await s.ok('POST', '/api/v1/users/me/subscriptions', {
    subscriptions: [{ name: 'secret', description: 'Hush' }],
    invite_only: true,
    stream_post_policy: 2,
    message_retention_days: 30,
  });
  const { stream_id } = await s.ok('GET', '/api/v1/get_stream_id', { stream: 'secret' });
  const { stream } = await s.ok('GET', `/api/v1/streams/${stream_id}`);
  assert.equal(stream.name, 'secret');
  assert.equal(stream.description, 'Hush');
  assert.equal(stream.rendered_description, '<p>Hush</p>');
  assert.equal(stream.invite_only, true);
  assert.equal(stream.history_public_to_subscribers, false);
  assert.equal(stream.stream_post_policy, 2);
  assert.equal(stream.is_announcement_only, true);
  assert.equal(stream.message_retention_days, 30);
  assert.equal(stream.first_message_id, null);
  assert.equal(stream.stream_weekly_traffic, null);
  assert.equal(typeof stream.can_remove_subscribers_group_id, 'number');
  const hidden = await s.api('GET', `/api/v1/streams/${stream_id}`, {}, { as: alice });
  assert.equal(hidden.status, 400);
  assert.equal(hidden.body.msg, 'Invalid stream ID');
  const byName = await s.api('GET', '/api/v1/get_stream_id', { stream: 'secret' }, { as: alice });
  assert.equal(byName.body.code, 'STREAM_DOES_NOT_EXIST');
  const names = (await s.ok('GET', '/api/v1/streams', {}, alice)).streams.map((x: any) => x.name);
  assert.deepEqual(names, ['general']);
  const send = await s.api('POST', '/api/v1/messages', { type: 'stream', to: stream_id, topic: 't', content: 'x' }, { as: alice });
  assert.equal(send.status, 400);
});

test('GET /streams flags, include_all_active for administrators only', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'private' }], invite_only: true });
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'public' }] }, alice);
  const all = await s.ok('GET', '/api/v1/streams', { include_all_active: true });
  assert.deepEqual(all.streams.map((x: any) => x.name).sort(), ['general', 'private', 'public']);
  const refused = await s.api('GET', '/api/v1/streams', { include_all_active: true }, { as: alice });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.code, 'BAD_REQUEST');
  const onlyDefault = await s.ok('GET', '/api/v1/streams', { include_public: false, include_subscribed: false, include_default: true }, alice);
  assert.deepEqual(onlyDefault.streams.map((x: any) => x.name), ['general']);
  const none = await s.ok('GET', '/api/v1/streams', { include_public: false, include_subscribed: false });
  assert.deepEqual(none.streams, []);
});

test('subscriptions: list with subscribers, already subscribed, unsubscribe', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const first = await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [s.owner.email, alice.email] });
  assert.deepEqual(first.subscribed, { [s.owner.email]: ['design'], [alice.email]: ['design'] });
  const again = await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'design' }] });
  assert.deepEqual(again.subscribed, {});
  assert.deepEqual(again.already_subscribed, { [s.owner.email]: ['design'] });
  const { subscriptions } = await s.ok('GET', '/api/v1/users/me/subscriptions', { include_subscribers: true }, alice);
  const design = subscriptions.find((x: any) => x.name === 'design');
  assert.deepEqual(design.subscribers, [s.owner.id, alice.id]);
  assert.equal(design.is_muted, false);
  assert.equal(design.in_home_view, true);
  assert.equal(design.desktop_notifications, null);
  assert.match(design.color, /^#[0-9a-f]{6}$/);
  const removed = await s.ok('DELETE', '/api/v1/users/me/subscriptions', { subscriptions: ['design'] }, alice);
  assert.deepEqual(removed, { result: 'success', msg: '', removed: ['design'], not_removed: [] });
  const notAgain = await s.ok('DELETE', '/api/v1/users/me/subscriptions', { subscriptions: ['design'] }, alice);
  assert.deepEqual(notAgain.not_removed, ['design']);
  const gone = await s.api('DELETE', '/api/v1/users/me/subscriptions', { subscriptions: ['nope'] }, { as: alice });
  assert.equal(gone.body.code, 'STREAM_DOES_NOT_EXIST');
});

test('members cannot remove other subscribers; administrators can', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'x' }], principals: [alice.id, bob.id] });
  const refused = await s.api('DELETE', '/api/v1/users/me/subscriptions', { subscriptions: ['x'], principals: [bob.id] }, { as: alice });
  assert.equal(refused.status, 400);
  const ok = await s.ok('DELETE', '/api/v1/users/me/subscriptions', { subscriptions: ['x'], principals: [bob.id] });
  assert.deepEqual(ok.removed, ['x']);
});

test('stream_post_policy 2 lets only administrators post', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'news' }], principals: [s.owner.id, alice.id], stream_post_policy: 2 });
  const refused = await s.api('POST', '/api/v1/messages', { type: 'stream', to: 'news', topic: 't', content: 'x' }, { as: alice });
  assert.equal(refused.status, 400);
  await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'news', topic: 't', content: 'x' });
});

test('stream creation publishes stream and subscription events to those who may see them', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  s.published.length = 0;
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'hidden' }], invite_only: true, principals: [alice.id] });
  const summary = s.published.map((p) => [p.event.type, p.event.op, p.userIds]);
  // Administrators may see every private stream: the owner hears of it at once.
  assert.deepEqual(summary, [
    ['stream', 'create', [s.owner.id]],
    ['stream', 'create', [alice.id]],
    ['subscription', 'add', [alice.id]],
    ['subscription', 'peer_add', [s.owner.id]],
  ]);
  assert.ok(!s.published.some((p) => p.userIds.includes(bob.id)));
});

test('weekly traffic counts the messages of the last four weeks, not older ones', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'busy' }, { name: 'quiet' }] });
  const now = Math.floor(Date.now() / 1000);
  await setTime(s, 'streams', 'date_created', now - 60 * 86400);
  const send = async (to: string) => (await s.ok('POST', '/api/v1/messages', { type: 'stream', to, topic: 't', content: 'x' })).id as number;
  const old = [await send('busy'), await send('quiet'), await send('busy')];
  // Older messages have smaller IDs, as they do when sent over time.
  for (const [i, id] of old.entries()) {
    await setTime(s, 'messages', 'date_sent', now - (40 - i) * 86400, { id });
  }
  for (let i = 0; i < 8; i++) await send('busy');
  await send('quiet');
  const { streams } = await s.ok('GET', '/api/v1/streams');
  const traffic = Object.fromEntries(streams.map((x: any) => [x.name, x.stream_weekly_traffic]));
  assert.equal(traffic.busy, 2); // 8 recent messages over four weeks
  assert.equal(traffic.quiet, 0); // 1 recent message, rounded
  const { subscriptions } = await s.ok('GET', '/api/v1/users/me/subscriptions');
  assert.equal(subscriptions.find((x: any) => x.name === 'busy').stream_weekly_traffic, 2);
});

test('the first message of a period: its ID, or none when every message is older or there is no message', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const db = s.server.app.db.kysely;
  const now = Math.floor(Date.now() / 1000);
  assert.equal(await firstMessageIdSince(db, now - 100), null);
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'busy' }] });
  const ids: number[] = [];
  for (let i = 0; i < 5; i++) ids.push((await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'busy', topic: 't', content: `${i}` })).id as number);
  for (const [i, id] of ids.entries()) await setTime(s, 'messages', 'date_sent', now - (50 - i * 10), { id });
  assert.equal(await firstMessageIdSince(db, now - 50), ids[0]);
  assert.equal(await firstMessageIdSince(db, now - 25), ids[3]);
  assert.equal(await firstMessageIdSince(db, now - 10), ids[4]);
  assert.equal(await firstMessageIdSince(db, now - 5), null);
});
