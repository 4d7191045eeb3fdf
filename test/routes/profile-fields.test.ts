import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';

test('administrators create fields of each type; GET /realm/profile_fields lists them in order', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  s.published.length = 0;
  const phone = await s.ok('POST', '/api/v1/realm/profile_fields', { name: 'Phone', hint: 'Your phone', field_type: 1 });
  const bio = await s.ok('POST', '/api/v1/realm/profile_fields', { name: 'Biography', field_type: 2 });
  const editor = await s.ok('POST', '/api/v1/realm/profile_fields', {
    name: 'Editor',
    field_type: 3,
    field_data: { vim: { text: 'Vim', order: '1' }, emacs: { text: 'Emacs', order: '2' } },
    display_in_profile_summary: true,
  });
  const github = await s.ok('POST', '/api/v1/realm/profile_fields', { field_type: 7, field_data: { subtype: 'github' } });
  for (const [name, type] of [['Birthday', 4], ['Website', 5], ['Mentor', 6], ['Pronouns', 8]] as const) {
    await s.ok('POST', '/api/v1/realm/profile_fields', { name, field_type: type });
  }
  const { custom_fields } = await s.ok('GET', '/api/v1/realm/profile_fields');
  assert.deepEqual(custom_fields.map((f: any) => [f.name, f.type, f.order]), [
    ['Phone', 1, 1], ['Biography', 2, 2], ['Editor', 3, 3], ['GitHub', 7, 4], ['Birthday', 4, 5], ['Website', 5, 6], ['Mentor', 6, 7], ['Pronouns', 8, 8],
  ]);
  assert.deepEqual(custom_fields[0], { id: phone.id, type: 1, order: 1, name: 'Phone', hint: 'Your phone', field_data: '', required: false, editable_by_user: true });
  assert.equal(custom_fields[1].id, bio.id);
  assert.equal(custom_fields[2].id, editor.id);
  assert.equal(custom_fields[2].display_in_profile_summary, true);
  assert.deepEqual(JSON.parse(custom_fields[2].field_data), { vim: { text: 'Vim', order: '1' }, emacs: { text: 'Emacs', order: '2' } });
  assert.equal(custom_fields[3].id, github.id);
  assert.equal(custom_fields[3].hint, 'Enter your GitHub username');
  const events = s.published.filter((p) => p.event.type === 'custom_profile_fields');
  assert.equal(events.length, 8);
  assert.equal(events.at(-1)!.event.fields.length, 8);
});

test('field errors: non-administrator, blank or duplicate label, bad type, bad choices, bad pattern', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const member = await s.api('POST', '/api/v1/realm/profile_fields', { name: 'X', field_type: 1 }, { as: alice });
  assert.equal(member.status, 400);
  assert.equal(member.body.msg, 'Must be an organization administrator');
  await s.ok('POST', '/api/v1/realm/profile_fields', { name: 'Phone', field_type: 1 });
  const cases: [Record<string, unknown>, string][] = [
    [{ name: 'phone', field_type: 1 }, 'A field with that label already exists.'],
    [{ name: '  ', field_type: 1 }, 'Label cannot be blank.'],
    [{ name: 'X', field_type: 9 }, 'Invalid field type.'],
    [{ name: 'X', field_type: 3, field_data: {} }, 'Field must have at least one choice.'],
    [{ name: 'X', field_type: 3, field_data: { a: { text: 'A', order: '1' }, b: { text: 'A', order: '2' } } }, 'Field must not have duplicate choices.'],
    [{ name: 'X', field_type: 7, field_data: { subtype: 'custom', url_pattern: 'https://x.example/' } }, 'Malformed URL pattern.'],
    [{ name: 'X', field_type: 7, field_data: { subtype: 'myspace' } }, 'Invalid external account type'],
    [{ name: 'X', field_type: 2, display_in_profile_summary: true }, 'Field type not supported for display in profile summary.'],
  ];
  for (const [params, msg] of cases) {
    const res = await s.api('POST', '/api/v1/realm/profile_fields', params);
    assert.equal(res.status, 400, msg);
    assert.equal(res.body.msg, msg);
  }
});

test('update, reorder and delete fields, each with a custom_profile_fields event', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const a = (await s.ok('POST', '/api/v1/realm/profile_fields', { name: 'A', field_type: 1 })).id;
  const b = (await s.ok('POST', '/api/v1/realm/profile_fields', { name: 'B', field_type: 1 })).id;
  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/realm/profile_fields/${a}`, { name: 'A2', hint: 'h' });
  await s.ok('PATCH', '/api/v1/realm/profile_fields', { order: [b, a] });
  let fields = (await s.ok('GET', '/api/v1/realm/profile_fields')).custom_fields;
  assert.deepEqual(fields.map((f: any) => [f.id, f.name, f.hint, f.order]), [[b, 'B', '', 1], [a, 'A2', 'h', 2]]);
  const badOrder = await s.api('PATCH', '/api/v1/realm/profile_fields', { order: [a] });
  assert.equal(badOrder.body.msg, 'Invalid order mapping.');
  await s.ok('DELETE', `/api/v1/realm/profile_fields/${b}`);
  fields = (await s.ok('GET', '/api/v1/realm/profile_fields')).custom_fields;
  assert.deepEqual(fields.map((f: any) => f.id), [a]);
  const missing = await s.api('DELETE', `/api/v1/realm/profile_fields/${b}`);
  assert.equal(missing.body.msg, `Field id ${b} not found.`);
  assert.deepEqual(s.published.map((p) => [p.event.type, p.event.fields.length]), [['custom_profile_fields', 2], ['custom_profile_fields', 2], ['custom_profile_fields', 1]]);
});

test('users set their own values; Markdown fields get rendered_value; values appear in user JSON', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bio = (await s.ok('POST', '/api/v1/realm/profile_fields', { name: 'Biography', field_type: 2 })).id;
  const born = (await s.ok('POST', '/api/v1/realm/profile_fields', { name: 'Birthday', field_type: 4 })).id;
  const mentor = (await s.ok('POST', '/api/v1/realm/profile_fields', { name: 'Mentor', field_type: 6 })).id;
  s.published.length = 0;
  await s.ok('PATCH', '/api/v1/users/me/profile_data', { data: [{ id: bio, value: 'I like **bold**' }, { id: born, value: '1990-02-28' }, { id: mentor, value: [s.owner.id] }] }, alice);
  const me = await s.ok('GET', '/api/v1/users/me', {}, alice);
  assert.deepEqual(me.profile_data, {
    [bio]: { value: 'I like **bold**', rendered_value: '<p>I like <strong>bold</strong></p>' },
    [born]: { value: '1990-02-28' },
    [mentor]: { value: `[${s.owner.id}]` },
  });
  const byEmail = await s.ok('GET', `/api/v1/users/${alice.email}`, { include_custom_profile_fields: true });
  assert.deepEqual(byEmail.user.profile_data, me.profile_data);
  const plain = await s.ok('GET', `/api/v1/users/${alice.email}`);
  assert.equal('profile_data' in plain.user, false);
  const all = await s.ok('GET', '/api/v1/users', { include_custom_profile_fields: true });
  assert.deepEqual(all.members.find((u: any) => u.user_id === alice.id).profile_data, me.profile_data);
  assert.deepEqual(all.members.find((u: any) => u.user_id === s.owner.id).profile_data, {});
  const events = s.published.filter((p) => p.event.type === 'realm_user');
  assert.deepEqual(events[0]!.event, {
    type: 'realm_user',
    op: 'update',
    person: { user_id: alice.id, custom_profile_field: { id: bio, value: 'I like **bold**', rendered_value: '<p>I like <strong>bold</strong></p>' } },
  });
  assert.equal(events.length, 3);
  assert.deepEqual(events[0]!.userIds.sort(), [s.owner.id, alice.id].sort());
  s.published.length = 0;
  await s.ok('DELETE', '/api/v1/users/me/profile_data', { data: [born] }, alice);
  assert.deepEqual(s.published.map((p) => p.event.person), [{ user_id: alice.id, custom_profile_field: { id: born, value: null } }]);
  assert.equal(born in (await s.ok('GET', '/api/v1/users/me', {}, alice)).profile_data, false);
});

test('value errors: bad date, URL, choice, user, unknown field, too long, field not editable by users', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const born = (await s.ok('POST', '/api/v1/realm/profile_fields', { name: 'Birthday', field_type: 4 })).id;
  const site = (await s.ok('POST', '/api/v1/realm/profile_fields', { name: 'Website', field_type: 5 })).id;
  const pick = (await s.ok('POST', '/api/v1/realm/profile_fields', { name: 'Editor', field_type: 3, field_data: { a: { text: 'A', order: '1' } } })).id;
  const mentor = (await s.ok('POST', '/api/v1/realm/profile_fields', { name: 'Mentor', field_type: 6 })).id;
  const phone = (await s.ok('POST', '/api/v1/realm/profile_fields', { name: 'Phone', field_type: 1, editable_by_user: false })).id;
  const cases: [unknown, string][] = [
    [{ id: born, value: '1990-02-30' }, 'Birthday is not a date'],
    [{ id: site, value: 'not a url' }, 'Website is not a URL'],
    [{ id: pick, value: 'z' }, "'z' is not a valid choice for 'Editor'."],
    [{ id: mentor, value: [9999] }, 'Invalid user ID: 9999'],
    [{ id: 9999, value: 'x' }, 'Field id 9999 not found.'],
    [{ id: phone, value: 'x'.repeat(10) }, 'You are not allowed to change this field. Contact an administrator to update it.'],
  ];
  for (const [entry, msg] of cases) {
    const res = await s.api('PATCH', '/api/v1/users/me/profile_data', { data: [entry] }, { as: alice });
    assert.equal(res.status, 400, msg);
    assert.equal(res.body.msg, msg);
  }
  // Administrators may set any field through PATCH /users/{id}.
  await s.ok('PATCH', `/api/v1/users/${alice.id}`, { profile_data: [{ id: phone, value: '555' }, { id: pick, value: 'a' }] });
  const me = await s.ok('GET', '/api/v1/users/me', {}, alice);
  assert.deepEqual(me.profile_data, { [phone]: { value: '555', rendered_value: '<p>555</p>' }, [pick]: { value: 'a' } });
  const tooLong = await s.api('PATCH', `/api/v1/users/${alice.id}`, { profile_data: [{ id: phone, value: 'x'.repeat(51) }] });
  assert.equal(tooLong.body.msg, 'Phone is too long (limit: 50 characters)');
  // Removing a choice clears the values that used it.
  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/realm/profile_fields/${pick}`, { field_data: { b: { text: 'B', order: '1' } } });
  assert.deepEqual((await s.ok('GET', '/api/v1/users/me', {}, alice)).profile_data, { [phone]: { value: '555', rendered_value: '<p>555</p>' } });
  assert.deepEqual(s.published.map((p) => p.event.type), ['realm_user', 'custom_profile_fields']);
});
