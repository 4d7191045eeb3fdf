// Event queues: register, long-poll, filters, errors, collection, and surviving a restart.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createServer } from '../../src/app.ts';
import { createLogger } from '../../src/log.ts';
import { encodeParams, startServer, type Account, type TestServer } from '../helpers/server.ts';
import { setRealmSettings } from '../helpers/factories.ts';

const poll = (s: TestServer, as: Account, queueId: unknown, lastEventId: number, extra: Record<string, unknown> = {}) =>
  s.ok('GET', '/api/v1/events', { queue_id: queueId, last_event_id: lastEventId, ...extra }, as);

/**
 * Resolves once the server holds a long-poll on the queue: a fixed delay would race with the
 * request on a loaded machine (and the poll would then arrive after what it was meant to precede).
 */
async function untilPolling(s: TestServer, queueId: string, userId: number): Promise<void> {
  for (let i = 0; i < 10000; i++) {
    if (s.server.app.queues!.get(queueId, userId).waiter) return;
    await new Promise((r) => setTimeout(r, 1));
  }
  throw new Error('the long-poll never reached the server');
}

const sendDm = (s: TestServer, to: Account[], content: string, as?: Account, extra: Record<string, unknown> = {}) =>
  s.ok('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify(to.map((a) => a.id)), content, ...extra }, as);

test('a message sent later reaches a long-poll, in the form the client asked for', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const reg = await s.ok('POST', '/api/v1/register', { event_types: ['message'] }, bob);
  assert.equal(typeof reg.queue_id, 'string');
  assert.equal(reg.last_event_id, -1);
  assert.equal(reg.service_feature_level, 186);
  const waiting = poll(s, bob, reg.queue_id, -1);
  await sendDm(s, [bob], 'hello **bob**');
  const { events, queue_id } = await waiting;
  assert.equal(queue_id, reg.queue_id);
  assert.equal(events.length, 1);
  assert.equal(events[0].id, 0);
  // apply_markdown defaults to false: raw content; client_external_avatar defaults to true.
  assert.equal(events[0].message.content, 'hello **bob**');
  assert.equal(events[0].message.content_type, 'text/x-markdown');
  assert.equal(events[0].message.avatar_url, null);
  assert.deepEqual(events[0].flags, []);
  for (const internal of ['raw_content', 'sender_queue_id', 'local_message_id', 'sender_avatar_external', 'realm_id', 'public_stream']) {
    assert.equal(internal in events[0], false, internal);
  }
});

test('rendered content with apply_markdown, and local_message_id only on the sending queue', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const mine = await s.ok('POST', '/api/v1/register', { apply_markdown: true, client_external_avatar: false, event_types: ['message'] });
  const other = await s.ok('POST', '/api/v1/register', { event_types: ['message'] });
  await sendDm(s, [bob], 'a < b', s.owner, { queue_id: mine.queue_id, local_id: '12.01' });
  const a = (await poll(s, s.owner, mine.queue_id, -1)).events;
  assert.equal(a[0].message.content, '<p>a &lt; b</p>');
  assert.equal(a[0].message.content_type, 'text/html');
  assert.match(a[0].message.avatar_url, /^https:/);
  assert.equal(a[0].local_message_id, '12.01');
  assert.deepEqual(a[0].flags, ['read']);
  const b = (await poll(s, s.owner, other.queue_id, -1)).events;
  assert.equal('local_message_id' in b[0], false);
});

test('events older than last_event_id are pruned, and dont_block answers at once', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const reg = await s.ok('POST', '/api/v1/register', { event_types: ['message'] }, bob);
  assert.deepEqual((await poll(s, bob, reg.queue_id, -1, { dont_block: true })).events, []);
  await sendDm(s, [bob], 'one');
  await sendDm(s, [bob], 'two');
  const all = (await poll(s, bob, reg.queue_id, -1)).events;
  assert.deepEqual(all.map((e: { id: number }) => e.id), [0, 1]);
  const rest = (await poll(s, bob, reg.queue_id, 0, { dont_block: true })).events;
  assert.deepEqual(rest.map((e: { message: { content: string } }) => e.message.content), ['two']);
  // Acknowledged events are gone even when asked for again.
  const again = (await poll(s, bob, reg.queue_id, -1, { dont_block: true })).events;
  assert.deepEqual(again.map((e: { id: number }) => e.id), [1]);
});

test('an unknown, deleted or someone else\'s queue is BAD_EVENT_QUEUE_ID with the queue_id', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const reg = await s.ok('POST', '/api/v1/register', {}, bob);
  const unknown = await s.api('GET', '/api/v1/events', { queue_id: 'nope', last_event_id: -1 }, { as: bob });
  assert.equal(unknown.status, 400);
  assert.deepEqual(unknown.body, { result: 'error', msg: 'Bad event queue ID: nope', code: 'BAD_EVENT_QUEUE_ID', queue_id: 'nope' });
  const theirs = await s.api('GET', '/api/v1/events', { queue_id: reg.queue_id, last_event_id: -1 });
  assert.equal(theirs.body.code, 'BAD_EVENT_QUEUE_ID');
  const delTheirs = await s.api('DELETE', '/api/v1/events', { queue_id: reg.queue_id });
  assert.equal(delTheirs.body.code, 'BAD_EVENT_QUEUE_ID');
  await s.ok('DELETE', '/api/v1/events', { queue_id: reg.queue_id }, bob);
  const gone = await s.api('GET', '/api/v1/events', { queue_id: reg.queue_id, last_event_id: -1 }, { as: bob });
  assert.equal(gone.status, 400);
  assert.equal(gone.body.code, 'BAD_EVENT_QUEUE_ID');
  const missing = await s.api('GET', '/api/v1/events', {}, { as: bob });
  assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
});

test('idle queues are collected after the configured timeout', async (t) => {
  const s = await startServer({ env: { EVENT_QUEUE_TIMEOUT_SECONDS: '1' } });
  t.after(() => s.close());
  const reg = await s.ok('POST', '/api/v1/register', {});
  const queues = s.server.app.queues!;
  assert.equal(queues.collect(Date.now()), 0);
  assert.equal(queues.collect(Date.now() + 1500), 1);
  const res = await s.api('GET', '/api/v1/events', { queue_id: reg.queue_id, last_event_id: -1 });
  assert.equal(res.body.code, 'BAD_EVENT_QUEUE_ID');
});

test('a long-poll with nothing to deliver gets a heartbeat', async (t) => {
  const s = await startServer({ env: { HEARTBEAT_SECONDS: '1' } });
  t.after(() => s.close());
  const reg = await s.ok('POST', '/api/v1/register', { event_types: ['message'] });
  const { events } = await poll(s, s.owner, reg.queue_id, -1);
  assert.deepEqual(events, [{ type: 'heartbeat', id: 0 }]);
});

test('a new poll on the same queue ends the older one', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const reg = await s.ok('POST', '/api/v1/register', { event_types: ['message'] }, bob);
  const first = poll(s, bob, reg.queue_id, -1);
  await untilPolling(s, reg.queue_id, bob.id);
  const second = poll(s, bob, reg.queue_id, -1);
  assert.deepEqual((await first).events, []);
  await sendDm(s, [bob], 'x');
  assert.equal((await second).events.length, 1);
});

test('event_types, narrow and all_public_streams filter what a queue gets', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'alpha' }, { name: 'beta' }] });
  const onlySubs = await s.ok('POST', '/api/v1/register', { event_types: ['subscription'] }, bob);
  const narrowed = await s.ok('POST', '/api/v1/register', { event_types: ['message'], narrow: [['stream', 'alpha']] });
  const everyPublic = await s.ok('POST', '/api/v1/register', { event_types: ['message'], all_public_streams: true }, bob);
  await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'beta', topic: 't', content: 'in beta' });
  await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'alpha', topic: 't', content: 'in alpha' });
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'alpha' }] }, bob);
  const subsEvents = (await poll(s, bob, onlySubs.queue_id, -1)).events;
  assert.deepEqual(subsEvents.map((e: { type: string; op: string }) => `${e.type}:${e.op}`), ['subscription:add']);
  const narrowEvents = (await poll(s, s.owner, narrowed.queue_id, -1)).events;
  assert.deepEqual(narrowEvents.map((e: { message: { content: string } }) => e.message.content), ['in alpha']);
  // Bob is in neither stream, yet all_public_streams brings him both messages, with no flags.
  const publicEvents = (await poll(s, bob, everyPublic.queue_id, -1)).events;
  assert.deepEqual(publicEvents.map((e: { message: { content: string } }) => e.message.content), ['in beta', 'in alpha']);
  assert.deepEqual(publicEvents[0].flags, []);
});

test('a private stream\'s messages reach its subscribers only, even with all_public_streams', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const cat = await s.createUser('Cat');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], invite_only: true, principals: [s.owner.id, cat.id] });
  const bobQueue = await s.ok('POST', '/api/v1/register', { all_public_streams: true }, bob);
  const catQueue = await s.ok('POST', '/api/v1/register', { event_types: ['message'] }, cat);
  await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'secret', topic: 't', content: 'hush' });
  await sendDm(s, [cat], 'for cat only');
  const catEvents = (await poll(s, cat, catQueue.queue_id, -1)).events;
  assert.deepEqual(catEvents.map((e: { message: { content: string } }) => e.message.content), ['hush', 'for cat only']);
  const bobEvents = (await poll(s, bob, bobQueue.queue_id, -1, { dont_block: true })).events;
  assert.deepEqual(bobEvents, []);
  const published = s.published.filter((p) => p.event.type === 'message');
  assert.ok(published.every((p) => !p.userIds.includes(bob.id)));
});

test('register fetches only the requested groups, and unsupported types are ignored', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const reg = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['message', 'stop_words', 'no_such_type'], event_types: ['message'] });
  assert.deepEqual(
    Object.keys(reg).sort(),
    ['last_event_id', 'max_message_id', 'msg', 'queue_id', 'result', 'service_feature_level', 'service_merge_base', 'service_version', 'stop_words'].sort(),
  );
  assert.equal(reg.stop_words.length, 149);
  assert.ok(reg.stop_words.includes('the'));
  const all = await s.ok('POST', '/api/v1/register', {});
  for (const key of ['realm_users', 'subscriptions', 'unread_msgs', 'user_settings', 'realm_user_settings_defaults', 'realm_default_streams', 'recent_private_conversations', 'event_queue_longpoll_timeout_seconds']) {
    assert.ok(key in all, key);
  }
  assert.equal(all.event_queue_longpoll_timeout_seconds, 90);
});

test('register without credentials: only in realms with public access, with queue_id null', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const denied = await s.api('POST', '/api/v1/register', {}, { as: null });
  assert.equal(denied.status, 401);
  await setRealmSettings(s, { enable_spectator_access: true });
  const ok = await s.api('POST', '/api/v1/register', { fetch_event_types: ['realm'] }, { as: null });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.queue_id, null);
  const avatar = await s.api('POST', '/api/v1/register', { client_external_avatar: true }, { as: null });
  assert.equal(avatar.status, 400);
  const subscribers = await s.api('POST', '/api/v1/register', { include_subscribers: true }, { as: null });
  assert.equal(subscribers.status, 400);
});

test('events that arrive while register fetches its state are applied, not lost or repeated', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  // Race a register against a stream of messages to Bob: whatever the interleaving, the
  // snapshot plus the events after last_event_id account for every message exactly once.
  const sends = (async () => {
    for (let i = 0; i < 10; i++) await sendDm(s, [bob], `m${i}`);
  })();
  const reg = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['update_message_flags'], event_types: ['message'] }, bob);
  await sends;
  const later = (await poll(s, bob, reg.queue_id, reg.last_event_id, { dont_block: true })).events;
  assert.equal(reg.unread_msgs.count + later.length, 10);
});

test('a client polling across a restart keeps its queue and loses no event', async (t) => {
  const s = await startServer();
  let restarted: Awaited<ReturnType<typeof createServer>> | null = null;
  t.after(async () => {
    await restarted?.close();
    await s.close().catch(() => undefined);
  });
  const bob = await s.createUser('Bob');
  const reg = await s.ok('POST', '/api/v1/register', { event_types: ['message'] }, bob);
  const pending = poll(s, bob, reg.queue_id, -1);
  await sendDm(s, [bob], 'before');
  const first = (await pending).events;
  assert.deepEqual(first.map((e: { id: number }) => e.id), [0]);
  await sendDm(s, [bob], 'while away');
  // A poll waiting at shutdown is answered (with nothing), so the shutdown is not held up.
  const idle = await s.ok('POST', '/api/v1/register', { event_types: ['realm_user'] }, bob);
  const waiting = poll(s, bob, idle.queue_id, -1);
  await untilPolling(s, idle.queue_id, bob.id);
  await s.server.close();
  assert.deepEqual((await waiting).events, []);

  restarted = await createServer(s.config, { log: createLogger('silent') });
  const url = await restarted.listen();
  const res = await fetch(`${url}/api/v1/events?${encodeParams({ queue_id: reg.queue_id, last_event_id: 0 }).toString()}`, {
    headers: { host: 'localhost', authorization: 'Basic ' + Buffer.from(`${bob.email}:${bob.apiKey}`).toString('base64') },
  });
  const body = (await res.json()) as { events: { id: number; message: { content: string } }[] };
  assert.equal(res.status, 200);
  assert.deepEqual(body.events.map((e) => [e.id, e.message.content]), [[1, 'while away']]);
});

test('client_external_avatar: a new user\'s external avatar is null for clients that compute it', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const computes = await s.ok('POST', '/api/v1/register', { event_types: ['realm_user'] });
  const wantsUrl = await s.ok('POST', '/api/v1/register', { event_types: ['realm_user'], client_external_avatar: false });
  await s.createUser('Dora');
  const [a] = (await poll(s, s.owner, computes.queue_id, -1)).events;
  const [b] = (await poll(s, s.owner, wantsUrl.queue_id, -1)).events;
  assert.equal(a.person.avatar_url, null);
  assert.match(b.person.avatar_url, /^https:\/\/secure\.gravatar\.com\/avatar\//);
  assert.equal('avatar_external' in a, false);
});

test('narrow by direct messages and by sender', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'alpha' }], principals: [s.owner.id, bob.id] });
  const dms = await s.ok('POST', '/api/v1/register', { event_types: ['message'], narrow: [['is', 'dm']] }, bob);
  const fromOwner = await s.ok('POST', '/api/v1/register', { event_types: ['message'], narrow: [['sender', s.owner.email]] }, bob);
  await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'alpha', topic: 't', content: 'stream from owner' });
  await sendDm(s, [s.owner], 'dm from bob', bob);
  const a = (await poll(s, bob, dms.queue_id, -1)).events;
  assert.deepEqual(a.map((e: { message: { content: string } }) => e.message.content), ['dm from bob']);
  const b = (await poll(s, bob, fromOwner.queue_id, -1)).events;
  assert.deepEqual(b.map((e: { message: { content: string } }) => e.message.content), ['stream from owner']);
});
