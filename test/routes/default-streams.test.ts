import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/server.ts';
import { defaultStreamsGroup } from '../../src/events/event-types/default_streams.ts';
import { defaultStreamGroupsGroup } from '../../src/events/event-types/default_stream_groups.ts';

async function snapshot(s: TestServer, userId: number) {
  const db = s.server.app.db.kysely;
  const realm = await db.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const ctx = { app: s.server.app, realm, user, clientCapabilities: {}, applyMarkdown: true, clientExternalAvatar: true, includeSubscribers: false, slimPresence: false };
  return { ...(await defaultStreamsGroup(ctx)), ...(await defaultStreamGroupsGroup(ctx)) } as { realm_default_streams: any[]; realm_default_stream_groups: any[] };
}

async function streamId(s: TestServer, name: string): Promise<number> {
  return (await s.ok('GET', '/api/v1/get_stream_id', { stream: name })).stream_id as number;
}

test('default streams are added and removed with events, and new users join them', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const guest = await s.createUser('Guest', { role: 600 });
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'design' }] });
  const design = await streamId(s, 'design');
  const general = await streamId(s, 'general');
  s.published.length = 0;
  await s.ok('POST', '/api/v1/default_streams', { stream_id: design });
  const snap = await snapshot(s, s.owner.id);
  assert.deepEqual(snap.realm_default_streams.map((x: any) => x.name), ['general', 'design']);
  assert.deepEqual(s.published.map((p) => p.event), [{ type: 'default_streams', default_streams: snap.realm_default_streams }]);
  // Guests neither hear of nor see the defaults.
  assert.deepEqual(s.published[0]!.userIds, [s.owner.id]);
  assert.deepEqual((await snapshot(s, guest.id)).realm_default_streams, []);

  const newcomer = await s.createUser('Newcomer');
  const subs = (await s.ok('GET', '/api/v1/users/me/subscriptions', {}, newcomer)).subscriptions;
  assert.deepEqual(subs.map((x: any) => x.name).sort(), ['design', 'general']);

  await s.ok('DELETE', '/api/v1/default_streams', { stream_id: general });
  assert.deepEqual((await snapshot(s, s.owner.id)).realm_default_streams.map((x: any) => x.name), ['design']);
  assert.deepEqual(s.published.at(-1)!.event.default_streams.map((x: any) => x.name), ['design']);
});

test('private streams cannot be default; unknown streams and members are refused', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const member = await s.createUser('Member');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], invite_only: true });
  const secret = await streamId(s, 'secret');
  const priv = await s.api('POST', '/api/v1/default_streams', { stream_id: secret });
  assert.equal(priv.status, 400);
  assert.equal(priv.body.msg, 'Private streams cannot be made default.');
  const unknown = await s.api('POST', '/api/v1/default_streams', { stream_id: 9999 });
  assert.equal(unknown.body.msg, 'Invalid stream ID');
  const general = await streamId(s, 'general');
  for (const method of ['POST', 'DELETE']) {
    const res = await s.api(method, '/api/v1/default_streams', { stream_id: general }, { as: member });
    assert.equal(res.status, 400);
    assert.equal(res.body.msg, 'Must be an organization administrator');
  }
});

test('is_default_stream on subscribing makes the new stream default (administrators only)', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const member = await s.createUser('Member');
  s.published.length = 0;
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'announce' }], is_default_stream: true });
  assert.deepEqual((await snapshot(s, s.owner.id)).realm_default_streams.map((x: any) => x.name), ['general', 'announce']);
  assert.ok(s.published.some((p) => p.event.type === 'default_streams'));
  const refused = await s.api('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'mine' }], is_default_stream: true }, { as: member });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.msg, 'Must be an organization administrator');
  const priv = await s.api('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'hidden' }], is_default_stream: true, invite_only: true });
  assert.equal(priv.body.msg, 'Private streams cannot be made default.');
});

test('default stream groups are created, changed and removed with events', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const member = await s.createUser('Member');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'design' }, { name: 'eng' }] });
  s.published.length = 0;
  await s.ok('POST', '/api/v1/default_stream_groups/create', { group_name: 'Makers', description: 'Build things', stream_names: ['design'] });
  let groups = (await snapshot(s, member.id)).realm_default_stream_groups;
  assert.equal(groups.length, 1);
  assert.equal(groups[0].name, 'Makers');
  assert.equal(groups[0].description, 'Build things');
  assert.deepEqual(groups[0].streams.map((x: any) => x.name), ['design']);
  assert.deepEqual(s.published.map((p) => p.event), [{ type: 'default_stream_groups', default_stream_groups: groups }]);
  const id = groups[0].id;
  await s.ok('PATCH', `/api/v1/default_stream_groups/${id}/streams`, { op: 'add', stream_names: ['eng'] });
  await s.ok('PATCH', `/api/v1/default_stream_groups/${id}`, { new_group_name: 'Builders' });
  groups = (await snapshot(s, member.id)).realm_default_stream_groups;
  assert.deepEqual(groups.map((g: any) => [g.name, g.streams.map((x: any) => x.name)]), [['Builders', ['design', 'eng']]]);
  assert.deepEqual(s.published.at(-1)!.event, { type: 'default_stream_groups', default_stream_groups: groups });
  const again = await s.api('PATCH', `/api/v1/default_stream_groups/${id}/streams`, { op: 'add', stream_names: ['eng'] });
  assert.equal(again.status, 400);
  const dup = await s.api('POST', '/api/v1/default_stream_groups/create', { group_name: 'Builders', stream_names: [] });
  assert.match(dup.body.msg, /already exists/);
  const refused = await s.api('DELETE', `/api/v1/default_stream_groups/${id}`, {}, { as: member });
  assert.equal(refused.body.msg, 'Must be an organization administrator');
  await s.ok('DELETE', `/api/v1/default_stream_groups/${id}`);
  assert.deepEqual((await snapshot(s, member.id)).realm_default_stream_groups, []);
  assert.deepEqual(s.published.at(-1)!.event, { type: 'default_stream_groups', default_stream_groups: [] });
});
