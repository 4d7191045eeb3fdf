import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { sorted } from '../helpers/subscriptions.ts';
import { markRead, setRealmSettings, setUserSettings } from '../helpers/factories.ts';

test('read receipts list readers except the sender and those who turned receipts off', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  const carol = await s.createUser('Carol');
  const { id } = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'news', content: 'hello' }, alice);
  assert.deepEqual((await s.ok('GET', `/api/v1/messages/${id}/read_receipts`, {}, bob)).user_ids, []);
  await markRead(s, bob, [id]);
  await markRead(s, carol, [id]);
  await markRead(s, s.owner, [id]);
  // Alice is the sender (her copy is read) and never appears; Bob sees himself.
  assert.deepEqual((await s.ok('GET', `/api/v1/messages/${id}/read_receipts`, {}, bob)).user_ids, sorted([s.owner.id, bob.id, carol.id]));
  await setUserSettings(s, carol, { send_read_receipts: false });
  assert.deepEqual((await s.ok('GET', `/api/v1/messages/${id}/read_receipts`, {}, alice)).user_ids, sorted([s.owner.id, bob.id]));
});

test('read receipts: disabled by the realm, and only for messages the caller may access', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  const dm = (await s.ok('POST', '/api/v1/messages', { type: 'direct', to: [alice.id], content: 'psst' })).id as number;
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], invite_only: true });
  const priv = (await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'secret', topic: 't', content: 'x' })).id as number;
  for (const id of [dm, priv, 999999]) {
    const res = await s.api('GET', `/api/v1/messages/${id}/read_receipts`, {}, { as: bob });
    assert.equal(res.status, 400);
    assert.equal(res.body.msg, 'Invalid message(s)');
  }
  assert.deepEqual((await s.ok('GET', `/api/v1/messages/${dm}/read_receipts`, {}, alice)).user_ids, []);
  await setRealmSettings(s, { enable_read_receipts: false });
  const off = await s.api('GET', `/api/v1/messages/${dm}/read_receipts`, {}, { as: alice });
  assert.equal(off.status, 400);
  assert.equal(off.body.msg, 'Read receipts are disabled in this organization.');
});

test('read receipts of a public stream message the caller joined after it was sent', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'design' }] });
  const { id } = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 't', content: 'x' });
  const alice = await s.createUser('Alice');
  assert.deepEqual((await s.ok('GET', `/api/v1/messages/${id}/read_receipts`, {}, alice)).user_ids, []);
});
