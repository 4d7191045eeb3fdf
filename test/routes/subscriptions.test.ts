import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Account, type TestServer } from '../helpers/server.ts';
import { db, eventsOf, sorted, streamId } from '../helpers/subscriptions.ts';
import { makeBot, makeGuest, setRealmSettings } from '../helpers/factories.ts';

const SUBS = '/api/v1/users/me/subscriptions';

interface Cast {
  alice: Account;
  bob: Account;
  adam: Account;
  gina: Account;
}

/** Owner and admin Adam, members Alice and Bob, guest Gina. */
async function cast(s: TestServer): Promise<Cast> {
  return {
    alice: await s.createUser('Alice'),
    bob: await s.createUser('Bob'),
    adam: await s.createUser('Adam', { role: 200 }),
    gina: await makeGuest(s, 'Gina'),
  };
}

const subscribe = (s: TestServer, name: string, extra: Record<string, unknown> = {}, as?: Account) =>
  s.ok('POST', SUBS, { subscriptions: [{ name }], ...extra }, as);

test('members and subscription status follow who may see the stream', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { alice, bob, adam, gina } = await cast(s);
  await subscribe(s, 'design', { principals: [s.owner.id, alice.id] });
  await subscribe(s, 'secret', { invite_only: true });
  const design = await streamId(s, 'design');
  const secret = await streamId(s, 'secret');
  assert.deepEqual((await s.ok('GET', `/api/v1/streams/${design}/members`, {}, bob)).subscribers, sorted([s.owner.id, alice.id]));
  assert.deepEqual((await s.ok('GET', `/api/v1/streams/${secret}/members`, {}, adam)).subscribers, [s.owner.id]);
  for (const [who, id] of [
    [bob, secret],
    [gina, design],
  ] as const) {
    const res = await s.api('GET', `/api/v1/streams/${id}/members`, {}, { as: who });
    assert.equal(res.status, 400);
    assert.equal(res.body.msg, 'Invalid stream ID');
  }
  assert.equal((await s.ok('GET', `/api/v1/users/${alice.id}/subscriptions/${design}`, {}, bob)).is_subscribed, true);
  assert.equal((await s.ok('GET', `/api/v1/users/${bob.id}/subscriptions/${design}`, {}, bob)).is_subscribed, false);
  assert.equal((await s.ok('GET', `/api/v1/users/${s.owner.id}/subscriptions/${secret}`, {}, adam)).is_subscribed, true);
  const hidden = await s.api('GET', `/api/v1/users/${s.owner.id}/subscriptions/${secret}`, {}, { as: bob });
  assert.equal(hidden.body.msg, 'Invalid stream ID');
  const noUser = await s.api('GET', `/api/v1/users/9999/subscriptions/${design}`, {}, { as: bob });
  assert.equal(noUser.status, 400);
  assert.equal(noUser.body.msg, 'No such user');
});

test('subscribing others to a public stream: add to each, one peer_add to everyone else who may see it', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { alice, bob, adam, gina } = await cast(s);
  await subscribe(s, 'design');
  const design = await streamId(s, 'design');
  s.published.length = 0;
  const res = await subscribe(s, 'design', { principals: [alice.id, bob.id, s.owner.id] });
  assert.deepEqual(res.subscribed, { [alice.email]: ['design'], [bob.email]: ['design'] });
  assert.deepEqual(res.already_subscribed, { [s.owner.email]: ['design'] });
  const adds = eventsOf(s, 'subscription', 'add');
  assert.deepEqual(adds.map((e) => e.userIds), [[alice.id], [bob.id]]);
  for (const e of adds) assert.deepEqual(e.event.subscriptions[0].subscribers, sorted([s.owner.id, alice.id, bob.id]));
  assert.deepEqual(eventsOf(s, 'subscription', 'peer_add'), [
    { event: { type: 'subscription', op: 'peer_add', stream_ids: [design], user_ids: sorted([alice.id, bob.id]) }, userIds: sorted([s.owner.id, adam.id]) },
  ]);
  assert.deepEqual(eventsOf(s, 'stream'), []);
  // A guest could not see the stream before: they get it, then the subscription; now guests
  // subscribed to it see its peers.
  s.published.length = 0;
  await subscribe(s, 'design', { principals: [gina.id] });
  assert.deepEqual(eventsOf(s, 'stream', 'create').map((e) => [e.event.streams[0].stream_id, e.userIds]), [[design, [gina.id]]]);
  assert.deepEqual(eventsOf(s, 'subscription', 'peer_add')[0]!.userIds, sorted([s.owner.id, alice.id, bob.id, adam.id]));
  s.published.length = 0;
  await s.ok('DELETE', SUBS, { subscriptions: ['design'] }, bob);
  assert.deepEqual(eventsOf(s, 'subscription', 'remove').map((e) => e.userIds), [[bob.id]]);
  assert.deepEqual(eventsOf(s, 'subscription', 'peer_remove')[0]!.userIds, sorted([s.owner.id, alice.id, adam.id, gina.id]));
  assert.deepEqual(eventsOf(s, 'stream', 'delete'), []);
});

test('private streams: their events reach only subscribers and administrators', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { alice, bob, adam } = await cast(s);
  s.published.length = 0;
  await subscribe(s, 'secret', { invite_only: true });
  const secret = await streamId(s, 'secret');
  assert.deepEqual(eventsOf(s, 'stream', 'create').map((e) => e.userIds), [sorted([s.owner.id, adam.id])]);
  s.published.length = 0;
  await subscribe(s, 'secret', { principals: [alice.id] });
  assert.deepEqual(eventsOf(s, 'stream', 'create').map((e) => e.userIds), [[alice.id]]);
  assert.deepEqual(eventsOf(s, 'subscription', 'add').map((e) => e.userIds), [[alice.id]]);
  assert.deepEqual(eventsOf(s, 'subscription', 'peer_add').map((e) => e.userIds), [sorted([s.owner.id, adam.id])]);
  s.published.length = 0;
  await s.ok('DELETE', SUBS, { subscriptions: ['secret'], principals: [alice.id] });
  assert.deepEqual(eventsOf(s, 'subscription', 'remove').map((e) => [e.event.subscriptions, e.userIds]), [[[{ name: 'secret', stream_id: secret }], [alice.id]]]);
  assert.deepEqual(eventsOf(s, 'subscription', 'peer_remove').map((e) => [e.event.user_ids, e.userIds]), [[[alice.id], sorted([s.owner.id, adam.id])]]);
  // Alice can no longer see the stream at all.
  assert.deepEqual(eventsOf(s, 'stream', 'delete').map((e) => [e.event.stream_ids, e.userIds]), [[[secret], [alice.id]]]);
  assert.equal(s.published.some((p) => p.userIds.includes(bob.id)), false);
});

test('who may subscribe whom: private streams need a subscription, others need invite_to_stream_policy', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { alice, bob, adam, gina } = await cast(s);
  await subscribe(s, 'secret', { invite_only: true });
  await subscribe(s, 'design');
  const denied = await s.api('POST', SUBS, { subscriptions: [{ name: 'secret' }], principals: [alice.id] }, { as: bob });
  assert.equal(denied.status, 400);
  assert.equal(denied.body.msg, 'Unable to access stream (secret).');
  const soft = await s.ok('POST', SUBS, { subscriptions: [{ name: 'secret' }, { name: 'design' }], authorization_errors_fatal: false }, bob);
  assert.deepEqual(soft.unauthorized, ['secret']);
  assert.deepEqual(soft.subscribed, { [bob.email]: ['design'] });
  // At this feature level an administrator must be subscribed to a private stream to join others to it.
  const admin = await s.api('POST', SUBS, { subscriptions: [{ name: 'secret' }] }, { as: adam });
  assert.equal(admin.body.msg, 'Unable to access stream (secret).');
  const guestJoins = await s.api('POST', SUBS, { subscriptions: [{ name: 'design' }] }, { as: gina });
  assert.equal(guestJoins.body.msg, 'Unable to access stream (design).');
  const guestInvites = await s.api('POST', SUBS, { subscriptions: [{ name: 'general' }], principals: [alice.id] }, { as: gina });
  assert.equal(guestInvites.body.msg, 'Insufficient permission');

  await setRealmSettings(s, { invite_to_stream_policy: 2 });
  const member = await s.api('POST', SUBS, { subscriptions: [{ name: 'design' }], principals: [alice.id] }, { as: bob });
  assert.equal(member.status, 400);
  assert.equal(member.body.msg, 'Insufficient permission');
  await s.ok('POST', SUBS, { subscriptions: [{ name: 'design' }], principals: [bob.id] }, bob);
  await s.ok('POST', SUBS, { subscriptions: [{ name: 'design' }], principals: [alice.id] }, adam);
  assert.deepEqual((await s.ok('GET', `/api/v1/streams/${await streamId(s, 'design')}/members`)).subscribers, sorted([s.owner.id, alice.id, bob.id]));
});

test('who may unsubscribe whom: administrators, can_remove_subscribers_group members, owners of bots', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { alice, bob, adam } = await cast(s);
  const botty = await makeBot(s, bob, 'Botty');
  const members = await db(s).selectFrom('user_groups').select('id').where('name', '=', 'role:members').executeTakeFirstOrThrow();
  await subscribe(s, 'design', { principals: [alice.id, bob.id, botty.id] });
  await subscribe(s, 'open', { principals: [alice.id, bob.id], can_remove_subscribers_group_id: members.id });
  await subscribe(s, 'secret', { principals: [alice.id], invite_only: true, can_remove_subscribers_group_id: members.id });

  const denied = await s.api('DELETE', SUBS, { subscriptions: ['design'], principals: [alice.id] }, { as: bob });
  assert.equal(denied.status, 400);
  assert.equal(denied.body.msg, 'Insufficient permission');
  assert.deepEqual(await s.ok('DELETE', SUBS, { subscriptions: ['design'], principals: [botty.id] }, bob), { result: 'success', msg: '', removed: ['design'], not_removed: [] });
  assert.deepEqual((await s.ok('DELETE', SUBS, { subscriptions: ['open'], principals: [alice.id] }, bob)).removed, ['open']);
  assert.deepEqual((await s.ok('DELETE', SUBS, { subscriptions: ['design'], principals: [alice.id, bob.id] }, adam)).removed, ['design', 'design']);
  assert.deepEqual((await s.ok('DELETE', SUBS, { subscriptions: ['design'], principals: [alice.id] }, adam)).not_removed, ['design']);
  // Being in the group is not enough for a private stream one cannot see.
  const hidden = await s.api('DELETE', SUBS, { subscriptions: ['secret'], principals: [alice.id] }, { as: bob });
  assert.equal(hidden.body.code, 'STREAM_DOES_NOT_EXIST');
  const unknown = await s.api('DELETE', SUBS, { subscriptions: ['design'], principals: [9999] }, { as: adam });
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.msg, 'No such user');
});
