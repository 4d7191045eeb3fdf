import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/server.ts';
import { defaultStreams } from '../../src/db/queries/default-streams.ts';
import { realmSettings } from '../../src/lib/realm.ts';

async function streamRow(s: TestServer, id: number) {
  return s.server.app.db.kysely.selectFrom('streams').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/**
 * What a change published, without its notification-bot notice: the message (the stream's
 * first), and the bot's own arrival in the realm when it posts for the first time.
 */
const NOTICE_TYPES = new Set(['message', 'realm_user', 'realm_bot', 'user_group']);
const changes = (s: TestServer) =>
  s.published.filter((p) => !NOTICE_TYPES.has(p.event.type) && !(p.event.type === 'stream' && p.event.property === 'first_message_id'));

async function create(s: TestServer, name: string, extra: Record<string, unknown> = {}): Promise<number> {
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name }], ...extra });
  return (await s.ok('GET', '/api/v1/get_stream_id', { stream: name })).stream_id as number;
}

test('renaming and describing a stream updates it and tells everyone who can see it', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const id = await create(s, 'design');
  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/streams/${id}`, { new_name: 'Design Team', description: 'All **design** talk' });
  const row = await streamRow(s, id);
  assert.equal(row.name, 'Design Team');
  assert.equal(row.description, 'All **design** talk');
  assert.equal(row.rendered_description, '<p>All <strong>design</strong> talk</p>');
  assert.deepEqual(changes(s).map((p) => p.event), [
    { type: 'stream', op: 'update', stream_id: id, name: 'design', property: 'name', value: 'Design Team' },
    {
      type: 'stream',
      op: 'update',
      stream_id: id,
      name: 'Design Team',
      property: 'description',
      value: 'All **design** talk',
      rendered_description: '<p>All <strong>design</strong> talk</p>',
    },
  ]);
  assert.deepEqual(changes(s)[0]!.userIds.sort(), [s.owner.id, alice.id].sort());
  const taken = await s.api('PATCH', `/api/v1/streams/${id}`, { new_name: 'GENERAL' });
  assert.equal(taken.status, 400);
  assert.equal(taken.body.msg, "Stream name 'GENERAL' is already taken.");
  const empty = await s.api('PATCH', `/api/v1/streams/${id}`, { new_name: '  ' });
  assert.equal(empty.body.msg, "Stream name can't be empty!");
});

test('making a stream private hides it from non-subscribers; making it public shows it again', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  const id = await create(s, 'plans', { principals: [alice.id] });
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'plans' }] });
  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/streams/${id}`, { is_private: true });
  let row = await streamRow(s, id);
  assert.equal(row.invite_only, 1);
  assert.equal(row.history_public_to_subscribers, 0);
  const byType = (op: string) => changes(s).filter((p) => p.event.op === op);
  assert.deepEqual(byType('delete').map((p) => [p.event.stream_ids, p.userIds]), [[[id], [bob.id]]]);
  const update = byType('update')[0]!;
  assert.deepEqual(update.event, {
    type: 'stream', op: 'update', stream_id: id, name: 'plans', property: 'invite_only', value: true, history_public_to_subscribers: false, is_web_public: false,
  });
  assert.deepEqual(update.userIds.sort(), [s.owner.id, alice.id].sort());
  const hidden = await s.api('GET', `/api/v1/streams/${id}`, {}, { as: bob });
  assert.equal(hidden.status, 400);

  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/streams/${id}`, { is_private: false });
  row = await streamRow(s, id);
  assert.equal(row.invite_only, 0);
  assert.equal(row.history_public_to_subscribers, 1);
  // The notification bot, a user of the realm since its first notice here, sees the stream again too.
  const bot = await s.server.app.db.kysely.selectFrom('users').select('id').where('full_name', '=', 'Notification Bot').executeTakeFirstOrThrow();
  assert.deepEqual(byType('create').map((p) => [p.event.streams[0].stream_id, p.userIds.sort((a, b) => a - b)]), [[id, [bob.id, bot.id]]]);
});

test('post policy, retention and the unsubscribe group change with their events', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const id = await create(s, 'news');
  const groups = await s.server.app.db.kysely.selectFrom('user_groups').select(['id', 'name']).execute();
  const moderators = groups.find((g) => g.name === 'role:moderators')!.id;
  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/streams/${id}`, { stream_post_policy: 2, message_retention_days: 30, can_remove_subscribers_group_id: moderators });
  const row = await streamRow(s, id);
  assert.equal(row.stream_post_policy, 2);
  assert.equal(row.message_retention_days, 30);
  assert.equal(row.can_remove_subscribers_group_id, moderators);
  assert.deepEqual(changes(s).map((p) => [p.event.property, p.event.value]), [
    ['stream_post_policy', 2],
    ['is_announcement_only', true],
    ['message_retention_days', 30],
    ['can_remove_subscribers_group_id', moderators],
  ]);
  await s.ok('PATCH', `/api/v1/streams/${id}`, { message_retention_days: 'realm_default' });
  assert.equal((await streamRow(s, id)).message_retention_days, null);
  await s.ok('PATCH', `/api/v1/streams/${id}`, { message_retention_days: 'unlimited' });
  assert.equal((await streamRow(s, id)).message_retention_days, -1);
  const badGroup = await s.api('PATCH', `/api/v1/streams/${id}`, { can_remove_subscribers_group_id: 9999 });
  assert.equal(badGroup.body.msg, 'Invalid user group');
  const badPolicy = await s.api('PATCH', `/api/v1/streams/${id}`, { stream_post_policy: 7 });
  assert.equal(badPolicy.body.msg, 'Invalid stream_post_policy');
});

test('stream administration: members refused, retention owner-only, private streams need a subscription', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const member = await s.createUser('Member');
  const admin = await s.createUser('Admin', { role: 200 });
  const id = await create(s, 'ops');
  const refused = await s.api('PATCH', `/api/v1/streams/${id}`, { description: 'mine' }, { as: member });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.msg, 'Must be an organization administrator');
  const archive = await s.api('DELETE', `/api/v1/streams/${id}`, {}, { as: member });
  assert.equal(archive.body.msg, 'Must be an organization administrator');
  const retention = await s.api('PATCH', `/api/v1/streams/${id}`, { message_retention_days: 10 }, { as: admin });
  assert.equal(retention.body.msg, 'Must be an organization owner');
  await s.ok('PATCH', `/api/v1/streams/${id}`, { stream_post_policy: 4 }, admin);
  const secret = await create(s, 'secret', { invite_only: true });
  await s.ok('PATCH', `/api/v1/streams/${secret}`, { description: 'Renamed by an admin' }, admin);
  const privacy = await s.api('PATCH', `/api/v1/streams/${secret}`, { is_private: false }, { as: admin });
  assert.equal(privacy.body.msg, 'Invalid stream ID');
});

test('archiving a stream hides it, frees its name, ends subscriptions and default status', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const id = await create(s, 'old', { principals: [alice.id, s.owner.id] });
  await s.ok('POST', '/api/v1/default_streams', { stream_id: id });
  await s.ok('PATCH', '/api/v1/realm', { notifications_stream_id: id });
  s.published.length = 0;
  await s.ok('DELETE', `/api/v1/streams/${id}`);
  const row = await streamRow(s, id);
  assert.equal(row.deactivated, 1);
  assert.equal(row.name, '!DEACTIVATED:old');
  const del = s.published.find((p) => p.event.type === 'stream')!;
  assert.equal(del.event.op, 'delete');
  assert.deepEqual(del.event.stream_ids, [id]);
  assert.equal(del.event.streams[0].name, 'old');
  assert.deepEqual(del.userIds.sort(), [s.owner.id, alice.id].sort());
  assert.ok(s.published.some((p) => p.event.type === 'default_streams' && p.event.default_streams.every((x: any) => x.stream_id !== id)));
  assert.ok(s.published.some((p) => p.event.type === 'realm' && p.event.property === 'notifications_stream_id' && p.event.value === -1));
  const realm = await s.server.app.db.kysely.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
  assert.equal(realmSettings(realm).notifications_stream_id, -1);
  assert.deepEqual((await defaultStreams(s.server.app.db.kysely, realm.id)).map((x) => x.name), ['general']);
  const subs = (await s.ok('GET', '/api/v1/users/me/subscriptions', {}, alice)).subscriptions;
  assert.deepEqual(subs.map((x: any) => x.name), ['general']);
  const gone = await s.api('GET', `/api/v1/streams/${id}`);
  assert.equal(gone.status, 400);
  const again = await s.api('DELETE', `/api/v1/streams/${id}`);
  assert.equal(again.body.msg, 'Invalid stream ID');
  // The name can be used again.
  await create(s, 'old');
});

test('a stream becomes web-public only when the realm allows spectators', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const id = await create(s, 'showcase');
  const off = await s.api('PATCH', `/api/v1/streams/${id}`, { is_web_public: true });
  assert.equal(off.status, 400);
  assert.equal(off.body.msg, 'Web-public streams are not enabled.');
  await s.ok('PATCH', '/api/v1/realm', { enable_spectator_access: true });
  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/streams/${id}`, { is_web_public: true });
  assert.equal((await streamRow(s, id)).is_web_public, 1);
  assert.deepEqual(changes(s).map((p) => [p.event.property, p.event.value, p.event.is_web_public]), [['invite_only', false, true]]);
});
