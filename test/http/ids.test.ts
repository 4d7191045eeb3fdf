import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';

test('IDs beyond the database range are refused with 400, on either database', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const big = 99999999999;
  const field = (await s.ok('POST', '/api/v1/realm/profile_fields', { name: 'Mentor', field_type: 6 })).id;
  const cases: [string, string, Record<string, unknown>][] = [
    ['GET', `/api/v1/user_groups/${big}/members`, {}],
    ['POST', '/api/v1/user_groups/create', { name: 'x', description: '', members: [big] }],
    ['POST', '/api/v1/user_groups/create', { name: 'x', description: '', members: [], can_mention_group: big }],
    ['PATCH', `/api/v1/realm/profile_fields/${big}`, { name: 'y' }],
    ['PATCH', '/api/v1/users/me/profile_data', { data: [{ id: big, value: 'x' }] }],
    ['PATCH', '/api/v1/users/me/profile_data', { data: [{ id: field, value: [big] }] }],
    ['POST', '/api/v1/typing', { op: 'start', to: [big] }],
    ['POST', '/api/v1/typing', { op: 'start', type: 'stream', stream_id: big, topic: 't' }],
    ['GET', `/api/v1/users/${big}/presence`, {}],
    ['POST', '/api/v1/users/me/status', { emoji_name: 'x', reaction_type: 'realm_emoji', emoji_code: 'abc' }],
  ];
  for (const [method, path, params] of cases) {
    const res = await s.api(method, path, params);
    assert.equal(res.status, 400, `${method} ${path}`);
    assert.equal(res.body.code, 'BAD_REQUEST', `${method} ${path}`);
  }
});

test('a choice named like an object property is not a valid choice', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const id = (await s.ok('POST', '/api/v1/realm/profile_fields', { name: 'Editor', field_type: 3, field_data: { a: { text: 'A', order: '1' } } })).id;
  const res = await s.api('PATCH', '/api/v1/users/me/profile_data', { data: [{ id, value: 'toString' }] });
  assert.equal(res.body.msg, "'toString' is not a valid choice for 'Editor'.");
});
