import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startServer, type TestServer } from '../helpers/server.ts';
import { followedCondition, followedTopics, notMutedCondition, unreadExclusions, unreadFilter } from '../../src/db/queries/user-topics.ts';
import { mutedTopicsSnapshot } from '../../src/events/event-types/muted_topics.ts';
import { userTopicSnapshot } from '../../src/events/event-types/user_topic.ts';
import type { SnapshotContext } from '../../src/events/event-type.ts';
import { db, eventsOf, streamId } from '../helpers/subscriptions.ts';

const send = async (s: TestServer, to: string, topic: string, as?: Parameters<TestServer['ok']>[3]) =>
  (await s.ok('POST', '/api/v1/messages', { type: 'stream', to, topic, content: `in ${topic}` }, as)).id as number;

test('topics of a stream: newest first, case variants joined under the newest spelling', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const general = await streamId(s, 'general');
  await send(s, 'general', 'Lunch');
  const m2 = await send(s, 'general', 'work');
  const m3 = await send(s, 'general', 'lunch');
  const res = await s.ok('GET', `/api/v1/users/me/${general}/topics`);
  assert.deepEqual(res.topics, [
    { name: 'lunch', max_id: m3 },
    { name: 'work', max_id: m2 },
  ]);
  const empty = await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'quiet' }] });
  assert.ok(empty);
  assert.deepEqual((await s.ok('GET', `/api/v1/users/me/${await streamId(s, 'quiet')}/topics`)).topics, []);
});

test('topics of a private stream with protected history: only what the caller received; others get 400', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], invite_only: true, history_public_to_subscribers: false });
  const secret = await streamId(s, 'secret');
  const early = await send(s, 'secret', 'early');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], principals: [alice.id] });
  const late = await send(s, 'secret', 'late');
  assert.deepEqual((await s.ok('GET', `/api/v1/users/me/${secret}/topics`)).topics, [
    { name: 'late', max_id: late },
    { name: 'early', max_id: early },
  ]);
  assert.deepEqual((await s.ok('GET', `/api/v1/users/me/${secret}/topics`, {}, alice)).topics, [{ name: 'late', max_id: late }]);
  const outsider = await s.api('GET', `/api/v1/users/me/${secret}/topics`, {}, { as: bob });
  assert.equal(outsider.status, 400);
  assert.equal(outsider.body.msg, 'Invalid stream ID');
  const unknown = await s.api('GET', '/api/v1/users/me/9999/topics');
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.code, 'BAD_REQUEST');
});

test('POST /user_topics: each policy sends muted_topics and user_topic events; repeating it sends nothing', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const general = await streamId(s, 'general');
  s.published.length = 0;
  await s.ok('POST', '/api/v1/user_topics', { stream_id: general, topic: 'lunch', visibility_policy: 1 });
  const muted = eventsOf(s, 'muted_topics');
  const ut = eventsOf(s, 'user_topic');
  assert.equal(muted.length, 1);
  assert.equal(ut.length, 1);
  const ts = ut[0]!.event.last_updated as number;
  assert.deepEqual(muted[0], { event: { type: 'muted_topics', muted_topics: [['general', 'lunch', ts]] }, userIds: [s.owner.id] });
  assert.deepEqual(ut[0], {
    event: { type: 'user_topic', stream_id: general, topic_name: 'lunch', last_updated: ts, visibility_policy: 1 },
    userIds: [s.owner.id],
  });
  s.published.length = 0;
  await s.ok('POST', '/api/v1/user_topics', { stream_id: general, topic: 'LUNCH', visibility_policy: 1 });
  assert.equal(s.published.length, 0);
  await s.ok('POST', '/api/v1/user_topics', { stream_id: general, topic: 'lunch', visibility_policy: 3 });
  assert.deepEqual(eventsOf(s, 'muted_topics').map((e) => e.event.muted_topics), [[]]);
  assert.deepEqual(eventsOf(s, 'user_topic').map((e) => e.event.visibility_policy), [3]);
  s.published.length = 0;
  await s.ok('POST', '/api/v1/user_topics', { stream_id: general, topic: 'lunch', visibility_policy: 0 });
  assert.deepEqual(eventsOf(s, 'user_topic').map((e) => e.event.visibility_policy), [0]);
  s.published.length = 0;
  await s.ok('POST', '/api/v1/user_topics', { stream_id: general, topic: 'lunch', visibility_policy: 0 });
  assert.equal(s.published.length, 0);
});

test('POST /user_topics: invalid policy, long topic, unknown or inaccessible stream', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const general = await streamId(s, 'general');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], invite_only: true });
  const secret = await streamId(s, 'secret');
  const cases: [Record<string, unknown>, string][] = [
    [{ stream_id: general, topic: 'x', visibility_policy: 4 }, 'Invalid visibility_policy'],
    [{ stream_id: general, topic: 'x', visibility_policy: 'muted' }, 'Invalid visibility_policy'],
    [{ stream_id: general, topic: 'x'.repeat(61), visibility_policy: 1 }, 'topic is too long (limit: 60 characters)'],
    [{ stream_id: 9999, topic: 'x', visibility_policy: 1 }, 'Invalid stream ID'],
    [{ stream_id: secret, topic: 'x', visibility_policy: 1 }, 'Invalid stream ID'],
  ];
  for (const [params, msg] of cases) {
    const res = await s.api('POST', '/api/v1/user_topics', params, { as: alice });
    assert.equal(res.status, 400, msg);
    assert.equal(res.body.msg, msg);
  }
  // Removing a policy needs no access, so a user can clean up after losing a stream.
  await s.ok('POST', '/api/v1/user_topics', { stream_id: secret, topic: 'x', visibility_policy: 0 }, alice);
});

test('legacy muted_topics: add and remove by stream name or ID; both or neither is an error', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const general = await streamId(s, 'general');
  const path = '/api/v1/users/me/subscriptions/muted_topics';
  await s.ok('PATCH', path, { stream: 'general', topic: 'lunch', op: 'add' });
  await s.ok('PATCH', path, { stream_id: general, topic: 'dinner', op: 'add' });
  let rows = await db(s).selectFrom('user_topics').select(['topic_name', 'visibility_policy']).orderBy('id').execute();
  assert.deepEqual(rows, [
    { topic_name: 'lunch', visibility_policy: 1 },
    { topic_name: 'dinner', visibility_policy: 1 },
  ]);
  await s.ok('PATCH', path, { stream: 'general', topic: 'lunch', op: 'remove' });
  rows = await db(s).selectFrom('user_topics').select(['topic_name', 'visibility_policy']).orderBy('id').execute();
  assert.deepEqual(rows, [{ topic_name: 'dinner', visibility_policy: 1 }]);
  const both = await s.api('PATCH', path, { stream: 'general', stream_id: general, topic: 'x', op: 'add' });
  assert.equal(both.body.msg, "Please choose one: 'stream' or 'stream_id'.");
  const neither = await s.api('PATCH', path, { topic: 'x', op: 'add' });
  assert.equal(neither.body.msg, "Please supply 'stream'.");
  const badOp = await s.api('PATCH', path, { stream: 'general', topic: 'x', op: 'toggle' });
  assert.equal(badOp.body.msg, 'Invalid op');
  const unknown = await s.api('PATCH', path, { stream: 'nowhere', topic: 'x', op: 'add' });
  assert.equal(unknown.body.code, 'STREAM_DOES_NOT_EXIST');
});

test('snapshot groups user_topic and muted_topics list the caller\'s settings', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const general = await streamId(s, 'general');
  await s.ok('POST', '/api/v1/user_topics', { stream_id: general, topic: 'lunch', visibility_policy: 1 });
  await s.ok('POST', '/api/v1/user_topics', { stream_id: general, topic: 'work', visibility_policy: 3 });
  const rows = await db(s).selectFrom('user_topics').select(['topic_name', 'last_updated']).orderBy('id').execute();
  const realm = await db(s).selectFrom('realms').selectAll().executeTakeFirstOrThrow();
  const user = await db(s).selectFrom('users').selectAll().where('id', '=', s.owner.id).executeTakeFirstOrThrow();
  const ctx: SnapshotContext = {
    app: s.server.app,
    realm,
    user,
    clientCapabilities: {},
    applyMarkdown: true,
    clientExternalAvatar: false,
    includeSubscribers: false,
    slimPresence: false,
  };
  assert.deepEqual(await userTopicSnapshot(ctx), {
    user_topics: [
      { stream_id: general, topic_name: 'lunch', last_updated: rows[0]!.last_updated, visibility_policy: 1 },
      { stream_id: general, topic_name: 'work', last_updated: rows[1]!.last_updated, visibility_policy: 3 },
    ],
  });
  assert.deepEqual(await mutedTopicsSnapshot(ctx), { muted_topics: [['general', 'lunch', rows[0]!.last_updated]] });
  assert.deepEqual(await userTopicSnapshot({ ...ctx, user: null }), { user_topics: [] });
});

test('muting streams and topics changes unreadExclusions, the unread filter and the SQL conditions', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [s.owner.email, alice.email] });
  const general = await streamId(s, 'general');
  const design = await streamId(s, 'design');
  const lunch = await send(s, 'general', 'lunch');
  const work = await send(s, 'general', 'work');
  const logo = await send(s, 'design', 'logo');
  const dm = (await s.ok('POST', '/api/v1/messages', { type: 'direct', to: [alice.id], content: 'hi' })).id as number;
  const k = db(s);

  const unreadCounted = async () =>
    (
      await k
        .selectFrom('user_messages as um')
        .innerJoin('messages as m', 'm.id', 'um.message_id')
        .select('m.id')
        .where('um.user_id', '=', alice.id)
        .where(sql<boolean>`(um.flags & 1) = 0`)
        .where(notMutedCondition(alice.id))
        .orderBy('m.id')
        .execute()
    ).map((r) => r.id);
  const followedIds = async () =>
    (await k.selectFrom('messages as m').select('m.id').where(followedCondition(alice.id)).orderBy('m.id').execute()).map((r) => r.id);

  assert.deepEqual(await unreadExclusions(k, alice.id), { mutedStreamIds: [], mutedTopics: [], unmutedTopicsInMutedStreams: [] });
  assert.deepEqual(await unreadCounted(), [lunch, work, logo, dm]);

  await s.ok('POST', '/api/v1/user_topics', { stream_id: general, topic: 'LUNCH', visibility_policy: 1 }, alice);
  let ex = await unreadExclusions(k, alice.id);
  assert.deepEqual(ex, { mutedStreamIds: [], mutedTopics: [{ streamId: general, topic: 'LUNCH' }], unmutedTopicsInMutedStreams: [] });
  assert.equal(unreadFilter(ex)(general, 'lunch'), true);
  assert.equal(unreadFilter(ex)(general, 'work'), false);
  assert.equal(unreadFilter(ex)(null, ''), false);
  assert.deepEqual(await unreadCounted(), [work, logo, dm]);

  await s.ok('POST', '/api/v1/users/me/subscriptions/properties', { subscription_data: [{ stream_id: design, property: 'is_muted', value: true }] }, alice);
  ex = await unreadExclusions(k, alice.id);
  assert.deepEqual(ex.mutedStreamIds, [design]);
  assert.equal(unreadFilter(ex)(design, 'logo'), true);
  assert.deepEqual(await unreadCounted(), [work, dm]);

  // An unmuted (or followed) topic in a muted stream counts again.
  await s.ok('POST', '/api/v1/user_topics', { stream_id: design, topic: 'Logo', visibility_policy: 2 }, alice);
  ex = await unreadExclusions(k, alice.id);
  assert.deepEqual(ex.unmutedTopicsInMutedStreams, [{ streamId: design, topic: 'Logo' }]);
  assert.equal(unreadFilter(ex)(design, 'logo'), false);
  assert.deepEqual(await unreadCounted(), [work, logo, dm]);

  await s.ok('POST', '/api/v1/user_topics', { stream_id: general, topic: 'work', visibility_policy: 3 }, alice);
  assert.deepEqual(await followedTopics(k, alice.id), [{ streamId: general, topic: 'work' }]);
  assert.deepEqual(await followedIds(), [work]);

  // Unmuting the stream: the unmuted topic no longer matters; the owner's settings are their own.
  await s.ok('POST', '/api/v1/users/me/subscriptions/properties', { subscription_data: [{ stream_id: design, property: 'is_muted', value: false }] }, alice);
  assert.deepEqual(await unreadExclusions(k, alice.id), { mutedStreamIds: [], mutedTopics: [{ streamId: general, topic: 'LUNCH' }], unmutedTopicsInMutedStreams: [] });
  assert.deepEqual(await unreadExclusions(k, s.owner.id), { mutedStreamIds: [], mutedTopics: [], unmutedTopicsInMutedStreams: [] });
  assert.deepEqual(await followedTopics(k, s.owner.id), []);
});
