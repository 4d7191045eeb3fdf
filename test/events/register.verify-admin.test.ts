// Verify-action for organization administration: realm settings, emoji, linkifiers, default
// streams and groups, bots, custom profile fields.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.ts';
import { kinds, verifyAction } from '../helpers/verify.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

async function uploadEmoji(s: TestServer, name: string): Promise<void> {
  const form = new FormData();
  form.append('filename', new Blob([new Uint8Array(PNG)]), 'emoji.png');
  const res = await fetch(`${s.baseUrl}/api/v1/realm/emoji/${name}`, {
    method: 'POST',
    headers: { authorization: 'Basic ' + Buffer.from(`${s.owner.email}:${s.owner.apiKey}`).toString('base64') },
    body: form,
  });
  assert.equal(res.status, 200);
}

test('realm update (name, description, a setting) and update_dict (editing settings)', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const named = await verifyAction(s, bob, () => s.ok('PATCH', '/api/v1/realm', { name: 'Acme', description: 'Our place' }));
  assert.deepEqual(kinds(named), ['realm:update', 'realm:update']);
  const setting = await verifyAction(s, bob, () => s.ok('PATCH', '/api/v1/realm', { waiting_period_threshold: 3 }));
  // Bob, a new member, is no longer a full member.
  assert.deepEqual(kinds(setting), ['realm:update', 'user_group:remove_members']);
  const dict = await verifyAction(s, bob, () => s.ok('PATCH', '/api/v1/realm', { allow_message_editing: false, message_content_edit_limit_seconds: 1200 }));
  assert.deepEqual(kinds(dict), ['realm:update_dict', 'realm:update_dict']);
});

test('realm_emoji update on adding and deactivating an emoji', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const added = await verifyAction(s, bob, () => uploadEmoji(s, 'parrot'));
  assert.deepEqual(kinds(added), ['realm_emoji:update']);
  const removed = await verifyAction(s, bob, () => s.ok('DELETE', '/api/v1/realm/emoji/parrot'));
  assert.deepEqual(kinds(removed), ['realm_emoji:update']);
});

test('realm_linkifiers on add, change, reorder and delete; none for clients without URL templates', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  let id = 0;
  const added = await verifyAction(s, bob, async () => {
    id = (await s.ok('POST', '/api/v1/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/{id}' })).id as number;
  });
  assert.deepEqual(kinds(added), ['realm_linkifiers']);
  const second = await s.ok('POST', '/api/v1/realm/filters', { pattern: 'T-(?P<id>[0-9]+)', url_template: 'https://t.example.com/{id}' });
  const reordered = await verifyAction(s, bob, () => s.ok('PATCH', '/api/v1/realm/linkifiers', { ordered_linkifier_ids: [second.id, id] }));
  assert.deepEqual(kinds(reordered), ['realm_linkifiers']);
  const changed = await verifyAction(s, bob, () => s.ok('PATCH', `/api/v1/realm/filters/${id}`, { pattern: '#(?P<id>[0-9]{1,6})', url_template: 'https://example.com/{id}' }));
  assert.deepEqual(kinds(changed), ['realm_linkifiers']);
  const legacy = await verifyAction(s, bob, () => s.ok('DELETE', `/api/v1/realm/filters/${id}`), { register: { client_capabilities: {} } });
  assert.deepEqual(kinds(legacy), []);
});

test('default_streams and default_stream_groups', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'news' }, { name: 'random' }] });
  const { stream_id } = await s.ok('GET', '/api/v1/get_stream_id', { stream: 'news' });
  const add = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/default_streams', { stream_id }));
  assert.deepEqual(kinds(add), ['default_streams']);
  const remove = await verifyAction(s, bob, () => s.ok('DELETE', '/api/v1/default_streams', { stream_id }));
  assert.deepEqual(kinds(remove), ['default_streams']);
  const create = await verifyAction(s, bob, () =>
    s.ok('POST', '/api/v1/default_stream_groups/create', { group_name: 'starters', description: 'first', stream_names: ['news'] }),
  );
  assert.deepEqual(kinds(create), ['default_stream_groups']);
  const groupId = (create[0]!.default_stream_groups as { id: number }[])[0]!.id;
  const renamed = await verifyAction(s, bob, () => s.ok('PATCH', `/api/v1/default_stream_groups/${groupId}`, { new_description: 'second' }));
  assert.deepEqual(kinds(renamed), ['default_stream_groups']);
  const streams = await verifyAction(s, bob, () => s.ok('PATCH', `/api/v1/default_stream_groups/${groupId}/streams`, { op: 'add', stream_names: ['random'] }));
  assert.deepEqual(kinds(streams), ['default_stream_groups']);
  const gone = await verifyAction(s, bob, () => s.ok('DELETE', `/api/v1/default_stream_groups/${groupId}`));
  assert.deepEqual(kinds(gone), ['default_stream_groups']);
});

test('realm_bot add, update, api key, remove (with the realm_user events) for the owner and an administrator', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const admin = await s.createUser('Ada', { role: 200 });
  let botId = 0;
  const add = await verifyAction(s, bob, async () => {
    botId = (await s.ok('POST', '/api/v1/bots', { full_name: 'Build Bot', short_name: 'build' }, bob)).user_id as number;
  });
  assert.deepEqual(kinds(add), ['realm_user:add', 'realm_bot:add', 'subscription:peer_add', 'user_group:add_members', 'user_group:add_members']);
  const rename = await verifyAction(s, admin, () => s.ok('PATCH', `/api/v1/bots/${botId}`, { full_name: 'Builder' }, bob));
  assert.deepEqual(kinds(rename), ['realm_user:update', 'realm_bot:update']);
  // The old owner loses the bot from their list; a new owner who is not an administrator gains it.
  const owner = await verifyAction(s, bob, () => s.ok('PATCH', `/api/v1/bots/${botId}`, { bot_owner_id: admin.id }));
  assert.deepEqual(kinds(owner), ['realm_user:update', 'realm_bot:delete']);
  const cat = await s.createUser('Cat');
  const gained = await verifyAction(s, cat, () => s.ok('PATCH', `/api/v1/bots/${botId}`, { bot_owner_id: cat.id }));
  assert.deepEqual(kinds(gained), ['realm_user:update', 'realm_bot:add']);
  const back = await verifyAction(s, admin, () => s.ok('PATCH', `/api/v1/bots/${botId}`, { bot_owner_id: admin.id }));
  assert.deepEqual(kinds(back), ['realm_user:update', 'realm_bot:update']);
  const key = await verifyAction(s, admin, () => s.ok('POST', `/api/v1/bots/${botId}/api_key/regenerate`, {}, admin));
  assert.deepEqual(kinds(key), ['realm_bot:update']);
  const remove = await verifyAction(s, admin, () => s.ok('DELETE', `/api/v1/bots/${botId}`, {}, admin));
  assert.deepEqual(kinds(remove), ['realm_user:remove', 'realm_bot:remove', 'subscription:peer_remove', 'user_group:remove_members', 'user_group:remove_members']);
});

test('deactivating a user deactivates the bots they own, and reactivating them does not bring the bots back', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const admin = await s.createUser('Ada', { role: 200 });
  const made = await s.ok('POST', '/api/v1/bots', { full_name: 'Build Bot', short_name: 'build' }, bob);
  const bot = { id: made.user_id as number, email: 'build-bot@localhost', apiKey: made.api_key as string };
  await s.ok('GET', '/api/v1/users/me', {}, bot);
  const gone = await verifyAction(s, admin, () => s.ok('DELETE', `/api/v1/users/${bob.id}`, {}, admin));
  assert.deepEqual(kinds(gone), [
    'subscription:peer_remove',
    'user_group:remove_members',
    'user_group:remove_members',
    'realm_user:remove',
    'realm_user:remove',
    'realm_bot:remove',
    'subscription:peer_remove',
    'user_group:remove_members',
    'user_group:remove_members',
  ]);
  assert.equal((await s.api('GET', '/api/v1/users/me', {}, { as: bot })).body.code, 'USER_DEACTIVATED');
  assert.equal((await s.ok('GET', `/api/v1/users/${bot.id}`, {}, admin)).user.is_active, false);
  await s.ok('POST', `/api/v1/users/${bob.id}/reactivate`, {}, admin);
  assert.equal((await s.api('GET', '/api/v1/users/me', {}, { as: bot })).body.code, 'USER_DEACTIVATED');
});

test('custom_profile_fields, and realm_user updates of a custom profile field value', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  let fieldId = 0;
  const create = await verifyAction(s, bob, async () => {
    fieldId = (await s.ok('POST', '/api/v1/realm/profile_fields', { field_type: 1, name: 'Phone', hint: 'Your number' })).id as number;
  });
  assert.deepEqual(kinds(create), ['custom_profile_fields']);
  const edit = await verifyAction(s, bob, () => s.ok('PATCH', `/api/v1/realm/profile_fields/${fieldId}`, { name: 'Mobile' }));
  assert.deepEqual(kinds(edit), ['custom_profile_fields']);
  const value = await verifyAction(s, s.owner, () => s.ok('PATCH', '/api/v1/users/me/profile_data', { data: [{ id: fieldId, value: '555-0100' }] }, bob));
  assert.deepEqual(kinds(value), ['realm_user:update']);
  const cleared = await verifyAction(s, s.owner, () => s.ok('DELETE', '/api/v1/users/me/profile_data', { data: [fieldId] }, bob));
  assert.deepEqual(kinds(cleared), ['realm_user:update']);
  const set = await verifyAction(s, s.owner, () => s.ok('PATCH', '/api/v1/users/me/profile_data', { data: [{ id: fieldId, value: '555-0199' }] }, bob));
  assert.deepEqual(kinds(set), ['realm_user:update']);
  const removed = await verifyAction(s, bob, () => s.ok('DELETE', `/api/v1/realm/profile_fields/${fieldId}`));
  assert.deepEqual(kinds(removed).slice(-1), ['custom_profile_fields']);
});
