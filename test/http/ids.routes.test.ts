// Every route that names a row by ID in its path refuses IDs that cannot name a row (past the
// database's integer range, negative, not a number) with a 4xx JSON error, never a 500.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { routes } from '../../src/routes/index.ts';
import { startServer } from '../helpers/server.ts';

const ID_NAME = /(^|_)id(_|$)/;

/** Whether a path parameter is decoded as a number (an `id()`), rather than a string key. */
function isNumeric(parse: (raw: string, name: string) => unknown): boolean {
  try {
    return typeof parse('1', 'x') === 'number';
  } catch {
    return false;
  }
}

test('every ID path parameter refuses 99999999999, -1 and abc with a 4xx', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  let checked = 0;
  for (const r of routes) {
    const pathParams = Object.entries(r.params).filter(([, spec]) => spec.inPath);
    for (const [name, spec] of pathParams) {
      if (!ID_NAME.test(name)) continue;
      for (const bad of ['99999999999', '-1', 'abc']) {
        // The other path parameters get plausible values: the owner and the first rows.
        const url = r.path.replace(/\{(\w+)\}/g, (_m, n: string) => (n === name ? bad : n.includes('user') ? String(s.owner.id) : '1'));
        const res = await s.api(r.method, `/api/v1${url}`, {});
        const what = `${r.method} ${r.path} with ${name}=${bad}: ${res.status} ${JSON.stringify(res.body)}`;
        assert.ok(res.status >= 400 && res.status < 500, what);
        assert.equal(res.body.result, 'error', what);
        assert.equal(typeof res.body.code, 'string', what);
        if (bad === '99999999999' && isNumeric(spec.parse)) {
          assert.equal(res.status, 400, what);
          assert.match(res.body.msg, new RegExp(name), what);
        }
        checked++;
      }
    }
  }
  // The route table has dozens of such routes; a walk that found none would prove nothing.
  assert.ok(checked > 60, `only ${checked} cases`);
});

test('IDs past the range inside JSON parameters are refused or name nothing, alike on both databases', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const big = 99999999999;
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'S' }] });
  await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'S', topic: 't', content: 'x' });
  // Narrow operands naming no row match nothing, as an unknown ID in range does.
  for (const operator of ['channel', 'sender', 'dm', 'dm-including', 'id']) {
    const narrow = [{ operator, operand: operator === 'dm' ? [big] : big }];
    const res = await s.api('GET', '/api/v1/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow });
    if (res.status === 200) assert.deepEqual(res.body.messages, [], operator);
    else assert.equal(res.body.code, 'BAD_REQUEST', operator);
    assert.notEqual(res.body.msg, 'A number in the request is out of range', operator);
  }
  const cases: [string, string, Record<string, unknown>, string][] = [
    ['POST', '/api/v1/users/me/subscriptions/properties', { subscription_data: [{ stream_id: big, property: 'color', value: '#aabbcc' }] }, 'subscription_data[0]["stream_id"] is too large'],
    ['POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'S' }], principals: [big] }, 'principals[0] is too large'],
    ['POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'T' }], message_retention_days: big }, "Bad value for 'message_retention_days'"],
    ['POST', '/api/v1/messages/flags', { messages: [big], op: 'add', flag: 'starred' }, 'messages[0] is too large'],
    ['POST', '/api/v1/messages', { type: 'stream', to: big, topic: 't', content: 'x' }, 'Invalid data type for recipients'],
  ];
  for (const [method, path, params, msg] of cases) {
    const res = await s.api(method, path, params);
    assert.equal(res.status, 400, `${method} ${path}`);
    assert.deepEqual([res.body.code, res.body.msg], ['BAD_REQUEST', msg], `${method} ${path}`);
  }
});
