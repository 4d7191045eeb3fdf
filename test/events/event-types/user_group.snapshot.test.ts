import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { userGroupsSnapshot } from '../../../src/events/event-types/user_group.ts';
import { customProfileFieldsSnapshot } from '../../../src/events/event-types/custom_profile_fields.ts';
import type { SnapshotGroup } from '../../../src/events/event-type.ts';

async function snap(s: TestServer, group: SnapshotGroup, userId: number): Promise<Record<string, any>> {
  const app = s.server.app;
  const user = await app.db.kysely.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const realm = await app.db.kysely.selectFrom('realms').selectAll().where('id', '=', user.realm_id).executeTakeFirstOrThrow();
  return group({ app, realm, user, clientCapabilities: {}, applyMarkdown: false, clientExternalAvatar: false, includeSubscribers: false, slimPresence: false });
}

test('realm_user_groups equals GET /user_groups and leaves out deactivated groups', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  await s.ok('POST', '/api/v1/user_groups/create', { name: 'ops', description: 'Ops', members: [alice.id] });
  const gone = (await s.ok('POST', '/api/v1/user_groups/create', { name: 'gone', description: '', members: [] })).group_id;
  await s.ok('POST', `/api/v1/user_groups/${gone}/deactivate`);
  const { realm_user_groups } = await snap(s, userGroupsSnapshot, alice.id);
  const { user_groups } = await s.ok('GET', '/api/v1/user_groups');
  assert.deepEqual(realm_user_groups, user_groups);
  assert.equal(realm_user_groups.some((g: any) => g.id === gone), false);
  assert.equal(realm_user_groups.filter((g: any) => g.is_system_group).length, 8);
  const ops = realm_user_groups.find((g: any) => g.name === 'ops');
  const everyone = realm_user_groups.find((g: any) => g.name === 'role:everyone');
  assert.equal(ops.can_mention_group, everyone.id);
});

test('custom_profile_fields equals GET /realm/profile_fields; the eight types are described', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await s.ok('POST', '/api/v1/realm/profile_fields', { name: 'Phone', field_type: 1 });
  const out = await snap(s, customProfileFieldsSnapshot, s.owner.id);
  assert.deepEqual(out.custom_profile_fields, (await s.ok('GET', '/api/v1/realm/profile_fields')).custom_fields);
  assert.deepEqual(
    Object.values(out.custom_profile_field_types).map((t: any) => t.id).sort(),
    [1, 2, 3, 4, 5, 6, 7, 8],
  );
  assert.deepEqual(out.custom_profile_field_types.LONG_TEXT, { id: 2, name: 'Long text' });
});
