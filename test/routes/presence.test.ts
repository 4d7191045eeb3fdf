import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/server.ts';
import { userStatusSnapshot } from '../../src/events/event-types/user_status.ts';
import { alertWordsSnapshot } from '../../src/events/event-types/alert_words.ts';
import { presenceSnapshot } from '../../src/events/event-types/presence.ts';
import type { SnapshotGroup } from '../../src/events/event-type.ts';

async function snap(s: TestServer, group: SnapshotGroup, userId: number, slimPresence = false): Promise<Record<string, any>> {
  const app = s.server.app;
  const user = await app.db.kysely.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const realm = await app.db.kysely.selectFrom('realms').selectAll().where('id', '=', user.realm_id).executeTakeFirstOrThrow();
  return group({ app, realm, user, clientCapabilities: {}, applyMarkdown: false, clientExternalAvatar: false, includeSubscribers: false, slimPresence });
}

test('user status: text and emoji are stored, shown, and sent to the realm', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  s.published.length = 0;
  await s.ok('POST', '/api/v1/users/me/status', { status_text: 'on vacation', emoji_name: 'car' }, alice);
  const status = (await s.ok('GET', `/api/v1/users/${alice.id}/status`)).status;
  assert.deepEqual(status, { status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
  assert.deepEqual(s.published.map((p) => [p.event, p.userIds.sort()]), [
    [{ type: 'user_status', user_id: alice.id, status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' }, [s.owner.id, alice.id].sort()],
  ]);
  assert.deepEqual((await snap(s, userStatusSnapshot, s.owner.id)).user_status, { [alice.id]: status });
  await s.ok('POST', '/api/v1/users/me/status', { status_text: '', emoji_name: '' }, alice);
  assert.deepEqual((await s.ok('GET', `/api/v1/users/${alice.id}/status`)).status, {});
});

test('user status: away mirrors presence_enabled', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  s.published.length = 0;
  await s.ok('POST', '/api/v1/users/me/status', { away: true });
  assert.deepEqual(s.published.map((p) => p.event), [
    { type: 'user_settings', op: 'update', property: 'presence_enabled', value: false },
    { type: 'user_status', user_id: s.owner.id, away: true },
  ]);
  assert.deepEqual((await snap(s, userStatusSnapshot, s.owner.id)).user_status, { [s.owner.id]: { away: true } });
});

test('user status errors', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const cases: [Record<string, unknown>, string][] = [
    [{}, 'Client did not pass any new values.'],
    [{ status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
    [{ emoji_code: '1f697' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
    [{ emoji_name: 'invalid' }, "Emoji 'invalid' does not exist"],
    [{ emoji_name: 'car', emoji_code: '1f600' }, 'Invalid emoji name.'],
    [{ emoji_name: 'party', reaction_type: 'realm_emoji', emoji_code: '99' }, 'Invalid custom emoji.'],
  ];
  for (const [params, msg] of cases) {
    const res = await s.api('POST', '/api/v1/users/me/status', params);
    assert.equal(res.status, 400, msg);
    assert.equal(res.body.msg, msg);
  }
});

test('alert words: add without duplicates, list, remove, with events to the user', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  s.published.length = 0;
  const added = await s.ok('POST', '/api/v1/users/me/alert_words', { alert_words: ['Deploy', ' outage ', 'deploy', ''] });
  assert.deepEqual(added.alert_words, ['Deploy', 'outage']);
  assert.deepEqual((await s.ok('GET', '/api/v1/users/me/alert_words')).alert_words, ['Deploy', 'outage']);
  const removed = await s.ok('DELETE', '/api/v1/users/me/alert_words', { alert_words: ['DEPLOY', 'missing'] });
  assert.deepEqual(removed.alert_words, ['outage']);
  assert.deepEqual(s.published.map((p) => [p.event, p.userIds]), [
    [{ type: 'alert_words', alert_words: ['Deploy', 'outage'] }, [s.owner.id]],
    [{ type: 'alert_words', alert_words: ['outage'] }, [s.owner.id]],
  ]);
  assert.deepEqual((await snap(s, alertWordsSnapshot, s.owner.id)).alert_words, ['outage']);
  const long = await s.api('POST', '/api/v1/users/me/alert_words', { alert_words: ['x'.repeat(101)] });
  assert.equal(long.status, 400);
  const notList = await s.api('POST', '/api/v1/users/me/alert_words', { alert_words: 'x' });
  assert.equal(notList.status, 400);
});

test('typing: direct messages reach the participants, stream typing reaches subscribers', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  s.published.length = 0;
  await s.ok('POST', '/api/v1/typing', { op: 'start', to: [alice.id] });
  const owner = { user_id: s.owner.id, email: s.owner.email };
  const a = { user_id: alice.id, email: alice.email };
  assert.deepEqual(s.published.map((p) => [p.event, p.userIds]), [
    [{ type: 'typing', op: 'start', message_type: 'private', sender: owner, recipients: [owner, a] }, [s.owner.id, alice.id]],
  ]);
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [bob.id, s.owner.id] });
  const { stream_id } = await s.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
  s.published.length = 0;
  await s.ok('POST', '/api/v1/typing', { op: 'stop', type: 'stream', stream_id, topic: 'logo' });
  assert.deepEqual(s.published.map((p) => [p.event, p.userIds.sort()]), [
    [{ type: 'typing', op: 'stop', message_type: 'stream', sender: owner, stream_id, topic: 'logo' }, [s.owner.id, bob.id].sort()],
  ]);
});

test('typing errors', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const cases: [Record<string, unknown>, string, string][] = [
    [{ to: [1] }, 'REQUEST_VARIABLE_MISSING', "Missing 'op' argument"],
    [{ op: 'go', to: [1] }, 'BAD_REQUEST', 'Invalid op'],
    [{ op: 'start', to: [] }, 'BAD_REQUEST', "Empty 'to' list"],
    [{ op: 'start', to: [9999] }, 'BAD_REQUEST', 'Invalid user ID 9999'],
    [{ op: 'start', type: 'stream', topic: 'x' }, 'BAD_REQUEST', 'Missing stream_id'],
    [{ op: 'start', type: 'stream', stream_id: 9999, topic: 'x' }, 'BAD_REQUEST', 'Invalid stream ID'],
  ];
  for (const [params, code, msg] of cases) {
    const res = await s.api('POST', '/api/v1/typing', params);
    assert.equal(res.status, 400, msg);
    assert.equal(res.body.code, code);
    assert.equal(res.body.msg, msg);
  }
  await s.ok('PATCH', '/api/v1/settings', { send_private_typing_notifications: false });
  const off = await s.api('POST', '/api/v1/typing', { op: 'start', to: [s.owner.id] });
  assert.equal(off.body.msg, 'User has disabled typing notifications for direct messages');
});

test('presence: updates are recorded, shown in both formats, and announced when news', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  s.published.length = 0;
  const res = await s.ok('POST', '/api/v1/users/me/presence', { status: 'active' }, alice);
  assert.equal(typeof res.server_timestamp, 'number');
  assert.deepEqual(Object.keys(res.presences), [alice.email]);
  const mine = res.presences[alice.email];
  assert.equal(mine.aggregated.status, 'active');
  assert.equal(mine.website.client, 'website');
  assert.equal(s.published.length, 1);
  const ev = s.published[0]!;
  assert.equal(ev.event.type, 'presence');
  assert.equal(ev.event.user_id, alice.id);
  assert.equal(ev.event.email, alice.email);
  assert.equal(ev.event.presence.website.status, 'active');
  assert.deepEqual(ev.userIds.sort(), [s.owner.id, alice.id].sort());
  // A second ping right away is not news.
  await s.ok('POST', '/api/v1/users/me/presence', { status: 'active', ping_only: true }, alice);
  assert.equal(s.published.length, 1);
  const slim = await s.ok('POST', '/api/v1/users/me/presence', { status: 'idle', slim_presence: true });
  assert.deepEqual(Object.keys(slim.presences).sort(), [String(s.owner.id), String(alice.id)].sort());
  assert.equal(typeof slim.presences[String(alice.id)].active_timestamp, 'number');
  const realm = await s.ok('GET', '/api/v1/realm/presence');
  assert.equal(realm.presences[alice.email].aggregated.status, 'active');
  assert.equal(realm.presences[s.owner.email].aggregated.status, 'idle');
  const one = await s.ok('GET', `/api/v1/users/${alice.id}/presence`);
  assert.deepEqual(one.presence, realm.presences[alice.email]);
  const byEmail = await s.ok('GET', `/api/v1/users/${alice.email}/presence`);
  assert.deepEqual(byEmail.presence, one.presence);
  const snapshot = await snap(s, presenceSnapshot, s.owner.id, true);
  assert.deepEqual(Object.keys(snapshot.presences).sort(), [String(s.owner.id), String(alice.id)].sort());
});

test('presence: hidden users are not shown; unknown and silent users are errors', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const none = await s.api('GET', `/api/v1/users/${alice.id}/presence`);
  assert.equal(none.status, 400);
  assert.equal(none.body.msg, `No presence data for ${alice.id}`);
  await s.ok('PATCH', '/api/v1/settings', { presence_enabled: false }, alice);
  s.published.length = 0;
  await s.ok('POST', '/api/v1/users/me/presence', { status: 'active' }, alice);
  assert.equal(s.published.length, 0);
  assert.deepEqual((await s.ok('GET', '/api/v1/realm/presence')).presences, {});
  const unknown = await s.api('GET', '/api/v1/users/9999/presence');
  assert.equal(unknown.body.msg, 'No such user');
  const bad = await s.api('POST', '/api/v1/users/me/presence', { status: 'away' });
  assert.equal(bad.status, 400);
});
