import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/server.ts';
import { setRealmSettings } from '../helpers/factories.ts';

const ROLE_GUEST = 600;

async function groupNamed(s: TestServer, name: string): Promise<Record<string, any>> {
  const { user_groups } = await s.ok('GET', '/api/v1/user_groups', { include_deactivated_groups: true });
  return user_groups.find((g: any) => g.name === name);
}

test('system groups are listed with members following roles and nested subgroups', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const { user_groups } = await s.ok('GET', '/api/v1/user_groups');
  const byName = new Map(user_groups.map((g: any) => [g.name, g]));
  const owners = byName.get('role:owners') as any;
  const admins = byName.get('role:administrators') as any;
  const members = byName.get('role:members') as any;
  assert.deepEqual(owners.members, [s.owner.id]);
  assert.equal(owners.is_system_group, true);
  assert.deepEqual(admins.direct_subgroup_ids, [owners.id]);
  assert.deepEqual(members.members, [alice.id]);
  const all = await s.ok('GET', `/api/v1/user_groups/${members.id}/members`);
  assert.deepEqual(all.members, [s.owner.id, alice.id].sort((a, b) => a - b));
  const direct = await s.ok('GET', `/api/v1/user_groups/${members.id}/members`, { direct_member_only: true });
  assert.deepEqual(direct.members, [alice.id]);
});

test('creating a group returns its id and sends a user_group add event to the realm', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  s.published.length = 0;
  const res = await s.ok('POST', '/api/v1/user_groups/create', { name: 'design', description: 'Designers', members: [alice.id] }, alice);
  const group = await groupNamed(s, 'design');
  assert.equal(group.id, res.group_id);
  assert.deepEqual(group.members, [alice.id]);
  assert.deepEqual(group.direct_subgroup_ids, []);
  assert.equal(group.description, 'Designers');
  assert.equal(group.is_system_group, false);
  const events = s.published.filter((p) => p.event.type === 'user_group');
  assert.equal(events.length, 1);
  assert.equal(events[0]!.event.op, 'add');
  assert.equal(events[0]!.event.group.id, res.group_id);
  assert.deepEqual(events[0]!.userIds.sort(), [s.owner.id, alice.id].sort());
});

test('create errors: duplicate name, reserved prefix, invalid user, invalid subgroup, guests', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const guest = await s.createUser('Gus', { role: ROLE_GUEST });
  await s.ok('POST', '/api/v1/user_groups/create', { name: 'ops', description: '', members: [] });
  const cases: [Record<string, unknown>, string][] = [
    [{ name: 'ops', description: '', members: [] }, "User group 'ops' already exists."],
    [{ name: 'role:x', description: '', members: [] }, "User group name cannot start with 'role:'."],
    [{ name: ' ', description: '', members: [] }, "User group name can't be empty!"],
    [{ name: '@ops', description: '', members: [] }, "User group name cannot start with '@'."],
    [{ name: 'x'.repeat(101), description: '', members: [] }, 'User group name cannot exceed 100 characters.'],
    [{ name: 'x', description: '', members: [9999] }, 'Invalid user ID: 9999'],
    [{ name: 'x', description: '', members: [], subgroups: [9999] }, 'Invalid user group ID: 9999'],
  ];
  for (const [params, msg] of cases) {
    const res = await s.api('POST', '/api/v1/user_groups/create', params);
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'BAD_REQUEST');
    assert.equal(res.body.msg, msg);
  }
  const missing = await s.api('POST', '/api/v1/user_groups/create', { name: 'x', description: '' });
  assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
  const byGuest = await s.api('POST', '/api/v1/user_groups/create', { name: 'g', description: '', members: [] }, { as: guest });
  assert.equal(byGuest.body.msg, 'Insufficient permission');
  const listByGuest = await s.api('GET', '/api/v1/user_groups', {}, { as: guest });
  assert.equal(listByGuest.status, 400);
  assert.equal(listByGuest.body.msg, 'Not allowed for guest users');
});

test('updating name and description sends one update event; system groups cannot be changed', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { group_id } = await s.ok('POST', '/api/v1/user_groups/create', { name: 'ops', description: 'a', members: [] });
  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/user_groups/${group_id}`, { name: 'operations', description: 'b' });
  const group = await groupNamed(s, 'operations');
  assert.equal(group.description, 'b');
  assert.deepEqual(
    s.published.map((p) => p.event),
    [{ type: 'user_group', op: 'update', group_id, data: { name: 'operations', description: 'b' } }],
  );
  const admins = await groupNamed(s, 'role:administrators');
  const sys = await s.api('PATCH', `/api/v1/user_groups/${admins.id}`, { name: 'x' });
  assert.equal(sys.body.msg, 'Insufficient permission');
  const none = await s.api('PATCH', `/api/v1/user_groups/${group_id}`, {});
  assert.equal(none.body.msg, 'No new data supplied');
  const unknown = await s.api('PATCH', '/api/v1/user_groups/9999', { name: 'x' });
  assert.equal(unknown.body.msg, 'Invalid user group');
});

test('members manage the groups they belong to, within the realm policy', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const { group_id } = await s.ok('POST', '/api/v1/user_groups/create', { name: 'ops', description: '', members: [] });
  const bob = await s.createUser('Bob');
  // Members manage only groups they belong to; moderators and above manage any.
  const outsider = await s.api('PATCH', `/api/v1/user_groups/${group_id}`, { description: 'x' }, { as: alice });
  assert.equal(outsider.body.msg, 'Insufficient permission');
  await s.ok('POST', `/api/v1/user_groups/${group_id}/members`, { add: [alice.id] });
  await s.ok('POST', `/api/v1/user_groups/${group_id}/members`, { add: [bob.id] }, alice);
  await s.ok('POST', `/api/v1/user_groups/${group_id}/members`, { delete: [alice.id] });
  await setRealmSettings(s, { user_group_edit_policy: 2 });
  const res = await s.api('POST', `/api/v1/user_groups/${group_id}/members`, { add: [alice.id] }, { as: bob });
  assert.equal(res.status, 400);
  assert.equal(res.body.msg, 'Insufficient permission');
  await s.ok('POST', `/api/v1/user_groups/${group_id}/members`, { add: [alice.id] });
});

test('adding and removing members sends add_members and remove_members; bad changes are refused', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  const { group_id } = await s.ok('POST', '/api/v1/user_groups/create', { name: 'ops', description: '', members: [alice.id] });
  s.published.length = 0;
  await s.ok('POST', `/api/v1/user_groups/${group_id}/members`, { add: [bob.id], delete: [alice.id] });
  assert.deepEqual((await groupNamed(s, 'ops')).members, [bob.id]);
  assert.deepEqual(
    s.published.map((p) => p.event),
    [
      { type: 'user_group', op: 'add_members', group_id, user_ids: [bob.id] },
      { type: 'user_group', op: 'remove_members', group_id, user_ids: [alice.id] },
    ],
  );
  const again = await s.api('POST', `/api/v1/user_groups/${group_id}/members`, { add: [bob.id] });
  assert.equal(again.body.msg, `User ${bob.id} is already a member of this group`);
  const notMember = await s.api('POST', `/api/v1/user_groups/${group_id}/members`, { delete: [alice.id] });
  assert.equal(notMember.body.msg, `There is no member '${alice.id}' in this user group`);
  const nothing = await s.api('POST', `/api/v1/user_groups/${group_id}/members`, {});
  assert.equal(nothing.status, 400);
  const check = await s.ok('GET', `/api/v1/user_groups/${group_id}/members/${bob.id}`);
  assert.equal(check.is_user_group_member, true);
});

test('subgroups: add, list, refuse cycles, remove, with events', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const outer = (await s.ok('POST', '/api/v1/user_groups/create', { name: 'outer', description: '', members: [] })).group_id;
  const inner = (await s.ok('POST', '/api/v1/user_groups/create', { name: 'inner', description: '', members: [alice.id] })).group_id;
  s.published.length = 0;
  await s.ok('POST', `/api/v1/user_groups/${outer}/subgroups`, { add: [inner] });
  assert.deepEqual(s.published.map((p) => p.event), [{ type: 'user_group', op: 'add_subgroups', group_id: outer, direct_subgroup_ids: [inner] }]);
  assert.deepEqual((await s.ok('GET', `/api/v1/user_groups/${outer}/subgroups`)).subgroups, [inner]);
  assert.deepEqual((await s.ok('GET', `/api/v1/user_groups/${outer}/members`)).members, [alice.id]);
  assert.deepEqual((await s.ok('GET', `/api/v1/user_groups/${outer}/members`, { direct_member_only: true })).members, []);
  const cycle = await s.api('POST', `/api/v1/user_groups/${inner}/subgroups`, { add: [outer] });
  assert.equal(cycle.body.msg, `User group ${outer} is already a supergroup of this group.`);
  const self = await s.api('POST', `/api/v1/user_groups/${inner}/subgroups`, { add: [inner] });
  assert.equal(self.status, 400);
  s.published.length = 0;
  await s.ok('POST', `/api/v1/user_groups/${outer}/subgroups`, { delete: [inner] });
  assert.deepEqual(s.published.map((p) => p.event), [{ type: 'user_group', op: 'remove_subgroups', group_id: outer, direct_subgroup_ids: [inner] }]);
  const missing = await s.api('POST', `/api/v1/user_groups/${outer}/subgroups`, { delete: [inner] });
  assert.equal(missing.body.msg, `User group ${inner} is not a subgroup of this group.`);
});

test('deactivating a group hides it from the default list; a group in use is refused', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const outer = (await s.ok('POST', '/api/v1/user_groups/create', { name: 'outer', description: '', members: [] })).group_id;
  const inner = (await s.ok('POST', '/api/v1/user_groups/create', { name: 'inner', description: '', members: [] })).group_id;
  await s.ok('POST', `/api/v1/user_groups/${outer}/subgroups`, { add: [inner] });
  const inUse = await s.api('POST', `/api/v1/user_groups/${inner}/deactivate`);
  assert.equal(inUse.status, 400);
  assert.equal(inUse.body.code, 'CANNOT_DEACTIVATE_GROUP_IN_USE');
  assert.deepEqual(inUse.body.objections, [{ type: 'user_group', group_id: outer, settings: [] }]);
  s.published.length = 0;
  await s.ok('POST', `/api/v1/user_groups/${outer}/deactivate`);
  assert.deepEqual(s.published.map((p) => p.event), [{ type: 'user_group', op: 'update', group_id: outer, data: { deactivated: true } }]);
  const { user_groups } = await s.ok('GET', '/api/v1/user_groups');
  assert.equal(user_groups.some((g: any) => g.id === outer), false);
  assert.equal((await groupNamed(s, 'outer')).deactivated, true);
  const twice = await s.api('POST', `/api/v1/user_groups/${outer}/deactivate`);
  assert.equal(twice.body.msg, 'User group is already deactivated.');
  const admins = await groupNamed(s, 'role:administrators');
  const sys = await s.api('POST', `/api/v1/user_groups/${admins.id}/deactivate`);
  assert.equal(sys.body.msg, 'Insufficient permission');
});

test('a role change moves the user between system groups with add_members and remove_members', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const members = await groupNamed(s, 'role:members');
  const full = await groupNamed(s, 'role:fullmembers');
  const mods = await groupNamed(s, 'role:moderators');
  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/users/${alice.id}`, { role: 300 });
  assert.deepEqual(
    s.published.filter((p) => p.event.type === 'user_group').map((p) => p.event),
    [
      { type: 'user_group', op: 'remove_members', group_id: full.id, user_ids: [alice.id] },
      { type: 'user_group', op: 'remove_members', group_id: members.id, user_ids: [alice.id] },
      { type: 'user_group', op: 'add_members', group_id: mods.id, user_ids: [alice.id] },
    ],
  );
  assert.deepEqual((await groupNamed(s, 'role:moderators')).members, [alice.id]);
  assert.deepEqual((await groupNamed(s, 'role:members')).members, []);
});

test('new, deactivated and reactivated users enter and leave their groups with events', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const members = await groupNamed(s, 'role:members');
  const full = await groupNamed(s, 'role:fullmembers');
  s.published.length = 0;
  const alice = await s.createUser('Alice');
  const joined = s.published.filter((p) => p.event.type === 'user_group').map((p) => p.event);
  assert.deepEqual(joined, [
    { type: 'user_group', op: 'add_members', group_id: full.id, user_ids: [alice.id] },
    { type: 'user_group', op: 'add_members', group_id: members.id, user_ids: [alice.id] },
  ]);
  const { group_id } = await s.ok('POST', '/api/v1/user_groups/create', { name: 'ops', description: '', members: [alice.id] });
  s.published.length = 0;
  await s.ok('DELETE', `/api/v1/users/${alice.id}`);
  assert.deepEqual(
    s.published.filter((p) => p.event.type === 'user_group').map((p) => [p.event.op, p.event.group_id, p.userIds]),
    [['remove_members', full.id, [s.owner.id]], ['remove_members', members.id, [s.owner.id]], ['remove_members', group_id, [s.owner.id]]],
  );
  assert.deepEqual((await groupNamed(s, 'ops')).members, []);
  s.published.length = 0;
  await s.ok('POST', `/api/v1/users/${alice.id}/reactivate`);
  assert.deepEqual(
    s.published.filter((p) => p.event.type === 'user_group').map((p) => [p.event.op, p.event.group_id]),
    [['add_members', full.id], ['add_members', members.id], ['add_members', group_id]],
  );
  assert.deepEqual((await groupNamed(s, 'ops')).members, [alice.id]);
});
