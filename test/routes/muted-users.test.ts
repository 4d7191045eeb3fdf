import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { mutedUsersSnapshot } from '../../src/events/event-types/muted_users.ts';
import { snapshotContext } from '../helpers/snapshot.ts';

async function flagsOf(s: Awaited<ReturnType<typeof startServer>>, as: { id: number; email: string; apiKey: string }, messageId: number): Promise<string[]> {
  const res = await s.ok('GET', '/api/v1/messages', { anchor: messageId, num_before: 0, num_after: 0 }, as);
  return res.messages[0].flags as string[];
}

test('muting a user: their earlier and later messages are read for the muter, with events', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  const before = await s.ok('POST', '/api/v1/messages', { type: 'direct', to: [s.owner.id], content: 'before' }, alice);
  assert.deepEqual(await flagsOf(s, s.owner, before.id), []);

  s.published.length = 0;
  await s.ok('POST', `/api/v1/users/me/muted_users/${alice.id}`);
  const muted = s.published.find((p) => p.event.type === 'muted_users')!;
  assert.deepEqual(muted.userIds, [s.owner.id]);
  assert.equal(muted.event.muted_users.length, 1);
  assert.equal(muted.event.muted_users[0].id, alice.id);
  assert.equal(typeof muted.event.muted_users[0].timestamp, 'number');
  const flags = s.published.find((p) => p.event.type === 'update_message_flags')!;
  assert.deepEqual([flags.event, flags.userIds], [
    { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [before.id], all: false },
    [s.owner.id],
  ]);
  assert.deepEqual(await flagsOf(s, s.owner, before.id), ['read']);

  // New messages from Alice arrive read for the owner only; Bob's do not.
  s.published.length = 0;
  const later = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 't', content: 'later' }, alice);
  const fromBob = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 't', content: 'bob' }, bob);
  assert.deepEqual(await flagsOf(s, s.owner, later.id), ['read']);
  assert.deepEqual(await flagsOf(s, bob, later.id), []);
  assert.deepEqual(await flagsOf(s, s.owner, fromBob.id), []);
  const ownerEvent = s.published.find((p) => p.event.type === 'message' && p.event.message.id === later.id && p.userIds.includes(s.owner.id))!;
  assert.deepEqual(ownerEvent.event.flags, ['read']);

  const snap = await mutedUsersSnapshot(await snapshotContext(s, s.owner.id));
  assert.deepEqual(snap.muted_users, muted.event.muted_users);

  s.published.length = 0;
  await s.ok('DELETE', `/api/v1/users/me/muted_users/${alice.id}`);
  assert.deepEqual(s.published.map((p) => [p.event, p.userIds]), [[{ type: 'muted_users', muted_users: [] }, [s.owner.id]]]);
  const again = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 't', content: 'unmuted' }, alice);
  assert.deepEqual(await flagsOf(s, s.owner, again.id), []);
});

test('muting errors: self, no such user, already muted, not muted', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const expectError = async (method: string, id: number, msg: string) => {
    const res = await s.api(method, `/api/v1/users/me/muted_users/${id}`);
    assert.equal(res.status, 400, msg);
    assert.deepEqual([res.body.code, res.body.msg], ['BAD_REQUEST', msg]);
  };
  await expectError('POST', s.owner.id, 'Cannot mute self');
  await expectError('POST', 99999, 'No such user');
  await expectError('DELETE', 99999, 'No such user');
  await expectError('DELETE', alice.id, 'User is not muted');
  await s.ok('POST', `/api/v1/users/me/muted_users/${alice.id}`);
  await expectError('POST', alice.id, 'User already muted');
  // A deactivated user can still be unmuted.
  await s.ok('DELETE', `/api/v1/users/${alice.id}`);
  await s.ok('DELETE', `/api/v1/users/me/muted_users/${alice.id}`);
  const bad = await s.api('POST', '/api/v1/users/me/muted_users/abc');
  assert.equal(bad.status, 400);
});
