import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { startServer } from '../helpers/server.ts';
import { referenceDir, REFERENCE_MISSING } from '../helpers/reference.ts';
import { kinds, verifyAction } from '../helpers/verify.ts';
import { deriveRegisterTable, REGISTER_TABLE } from '../helpers/register-table.ts';

test('the table of fetch_event_types names and their keys is the reference\'s', (t) => {
  const dir = referenceDir();
  if (!dir) return t.skip(REFERENCE_MISSING);
  const doc = parse(fs.readFileSync(path.join(dir, 'zulip-openapi.yaml'), 'utf8')) as Record<string, unknown>;
  assert.deepEqual(REGISTER_TABLE, deriveRegisterTable(doc));
});

test('every fetch_event_types name the reference accepts returns its keys', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const missing: string[] = [];
  // As a client without the user_settings_object capability (which the legacy groups need).
  for (const [names, keys] of Object.entries(REGISTER_TABLE)) {
    const got = await s.ok('POST', '/api/v1/register', { fetch_event_types: names.split('+') });
    for (const key of keys) if (!(key in got)) missing.push(`${names}: ${key}`);
  }
  assert.deepEqual(missing, []);
  // Clients with the capability read the user_settings object instead, as the reference has it.
  const modern = await s.ok('POST', '/api/v1/register', {
    fetch_event_types: ['update_display_settings', 'update_global_notifications'],
    client_capabilities: { user_settings_object: true },
  });
  assert.equal('left_side_userlist' in modern, false);
  assert.equal('enable_sounds' in modern, false);
});

const MEMBER_PERMISSIONS = {
  can_create_streams: true,
  can_create_public_streams: true,
  can_create_private_streams: true,
  can_create_web_public_streams: false,
  can_subscribe_other_users: true,
  can_invite_others_to_realm: true,
};

test('realm_user: the user\'s own permissions follow the realm\'s policies and the user\'s role (verify-action)', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const own = async () => {
    const r = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['realm_user'] }, alice);
    return Object.fromEntries(Object.keys(MEMBER_PERMISSIONS).map((k) => [k, r[k]]));
  };
  assert.deepEqual(await own(), MEMBER_PERMISSIONS);
  const register = { fetch_event_types: ['realm_user', 'realm'] };
  await verifyAction(s, alice, () => s.ok('PATCH', '/api/v1/realm', { create_public_stream_policy: 2, invite_to_stream_policy: 4 }), { register });
  assert.deepEqual(await own(), { ...MEMBER_PERMISSIONS, can_create_public_streams: false, can_subscribe_other_users: false });
  // Full members only, with a waiting period Alice has not served.
  await verifyAction(s, alice, () => s.ok('PATCH', '/api/v1/realm', { create_private_stream_policy: 3, waiting_period_threshold: 10 }), { register });
  assert.deepEqual(await own(), { ...MEMBER_PERMISSIONS, can_create_streams: false, can_create_public_streams: false, can_create_private_streams: false, can_subscribe_other_users: false });
  await verifyAction(s, alice, () => s.ok('PATCH', '/api/v1/realm', { enable_spectator_access: true }), { register });
  const events = await verifyAction(s, alice, () => s.ok('PATCH', `/api/v1/users/${alice.id}`, { role: 200 }), { register });
  assert.ok(kinds(events).includes('realm_user:update'));
  assert.deepEqual(await own(), { ...MEMBER_PERMISSIONS, can_create_web_public_streams: true });
  // The same with every group fetched.
  await verifyAction(s, alice, () => s.ok('PATCH', `/api/v1/users/${alice.id}`, { role: 400 }));
});

test('starred_messages, realm_user_groups and the legacy settings groups follow their events (verify-action)', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { id } = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 't', content: 'hi' });
  const starred = await verifyAction(s, s.owner, () => s.ok('POST', '/api/v1/messages/flags', { messages: [id], op: 'add', flag: 'starred' }), {
    register: { fetch_event_types: ['starred_messages'] },
  });
  assert.deepEqual(kinds(starred), ['update_message_flags:add']);
  assert.deepEqual((await s.ok('POST', '/api/v1/register', { fetch_event_types: ['starred_messages'] })).starred_messages, [id]);

  const alice = await s.createUser('Alice');
  const grouped = await verifyAction(s, s.owner, () => s.ok('POST', '/api/v1/user_groups/create', { name: 'crew', description: 'the crew', members: [alice.id] }), {
    register: { fetch_event_types: ['realm_user_groups'] },
  });
  assert.deepEqual(kinds(grouped), ['user_group:add']);
  const groups = (await s.ok('POST', '/api/v1/register', { fetch_event_types: ['realm_user_groups'] })).realm_user_groups as { name: string }[];
  assert.ok(groups.some((g) => g.name === 'crew'));

  const legacy = { register: { client_capabilities: {}, fetch_event_types: ['update_display_settings', 'update_global_notifications'] } };
  const changed = await verifyAction(s, s.owner, () => s.ok('PATCH', '/api/v1/settings', { left_side_userlist: true, enable_sounds: false }), legacy);
  assert.deepEqual(kinds(changed), ['user_settings:update', 'update_display_settings', 'user_settings:update', 'update_global_notifications']);
  const after = await s.ok('POST', '/api/v1/register', legacy.register);
  assert.equal(after.left_side_userlist, true);
  assert.equal(after.enable_sounds, false);
});
