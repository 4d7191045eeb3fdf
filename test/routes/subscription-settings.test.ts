import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { db, eventsOf, streamId } from '../helpers/subscriptions.ts';

const P = '/api/v1/users/me/subscriptions/properties';

async function mySub(s: Awaited<ReturnType<typeof startServer>>, name: string, as?: Parameters<typeof s.ok>[3]) {
  const { subscriptions } = await s.ok('GET', '/api/v1/users/me/subscriptions', {}, as);
  return subscriptions.find((x: any) => x.name === name);
}

test('properties: colour, pin and notification settings change and each sends one update event to the user', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const general = await streamId(s, 'general');
  s.published.length = 0;
  await s.ok('POST', P, {
    subscription_data: [
      { stream_id: general, property: 'color', value: '#AABBCC' },
      { stream_id: general, property: 'pin_to_top', value: true },
      { stream_id: general, property: 'desktop_notifications', value: false },
      { stream_id: general, property: 'push_notifications', value: true },
    ],
  });
  const sub = await mySub(s, 'general');
  assert.equal(sub.color, '#AABBCC');
  assert.equal(sub.pin_to_top, true);
  assert.equal(sub.desktop_notifications, false);
  assert.equal(sub.push_notifications, true);
  assert.equal(sub.email_notifications, null);
  assert.deepEqual(
    eventsOf(s, 'subscription', 'update').map((e) => [e.event.property, e.event.value, e.event.stream_id, e.userIds]),
    [
      ['color', '#AABBCC', general, [s.owner.id]],
      ['pin_to_top', true, general, [s.owner.id]],
      ['desktop_notifications', false, general, [s.owner.id]],
      ['push_notifications', true, general, [s.owner.id]],
    ],
  );
});

test('properties: null sets a notification setting back to inheriting the user default', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const general = await streamId(s, 'general');
  await s.ok('POST', P, { subscription_data: [{ stream_id: general, property: 'audible_notifications', value: true }] });
  assert.equal((await mySub(s, 'general')).audible_notifications, true);
  s.published.length = 0;
  await s.ok('POST', P, { subscription_data: [{ stream_id: general, property: 'audible_notifications', value: null }] });
  assert.equal((await mySub(s, 'general')).audible_notifications, null);
  assert.deepEqual(eventsOf(s, 'subscription', 'update').map((e) => [e.event.property, e.event.value]), [['audible_notifications', null]]);
});

test('properties: is_muted and the legacy in_home_view are one setting and each change sends both events', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const general = await streamId(s, 'general');
  s.published.length = 0;
  await s.ok('POST', P, { subscription_data: [{ stream_id: general, property: 'is_muted', value: true }] });
  let sub = await mySub(s, 'general');
  assert.equal(sub.is_muted, true);
  assert.equal(sub.in_home_view, false);
  await s.ok('POST', P, { subscription_data: [{ stream_id: general, property: 'in_home_view', value: true }] });
  sub = await mySub(s, 'general');
  assert.equal(sub.is_muted, false);
  assert.equal(sub.in_home_view, true);
  assert.deepEqual(
    eventsOf(s, 'subscription', 'update').map((e) => [e.event.property, e.event.value]),
    [
      ['in_home_view', false],
      ['is_muted', true],
      ['in_home_view', true],
      ['is_muted', false],
    ],
  );
});

test('properties: bad values are refused with 400 and nothing is written', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const general = await streamId(s, 'general');
  const cases: [unknown, string][] = [
    [[{ stream_id: general, property: 'color', value: 'red' }], 'color is not a valid hex color code'],
    [[{ stream_id: general, property: 'pin_to_top', value: 'yes' }], 'pin_to_top is not a boolean'],
    [[{ stream_id: general, property: 'is_muted', value: null }], 'is_muted is not a boolean'],
    [[{ stream_id: general, property: 'email_address', value: true }], 'Unknown subscription property: email_address'],
    [[{ stream_id: 'x', property: 'pin_to_top', value: true }], 'subscription_data[0]["stream_id"] is not an integer'],
    [[{ stream_id: general, property: 'pin_to_top' }], 'subscription_data[0] is missing "value"'],
    [{ stream_id: general }, 'subscription_data is not a list'],
    [[{ stream_id: 9999, property: 'pin_to_top', value: true }], 'Invalid stream ID'],
    [
      [
        { stream_id: general, property: 'pin_to_top', value: true },
        { stream_id: general, property: 'color', value: '#12' },
      ],
      'color is not a valid hex color code',
    ],
  ];
  s.published.length = 0;
  for (const [data, msg] of cases) {
    const res = await s.api('POST', P, { subscription_data: data });
    assert.equal(res.status, 400, JSON.stringify(data));
    assert.equal(res.body.code, 'BAD_REQUEST');
    assert.equal(res.body.msg, msg);
  }
  assert.equal((await mySub(s, 'general')).pin_to_top, false);
  assert.equal(s.published.length, 0);
  const missing = await s.api('POST', P, {});
  assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
});

test('properties: a stream the user can see but is not subscribed to, and a private one they cannot see', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'open' }] });
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], invite_only: true });
  const open = await streamId(s, 'open');
  const secret = await streamId(s, 'secret');
  const notSub = await s.api('POST', P, { subscription_data: [{ stream_id: open, property: 'pin_to_top', value: true }] }, { as: alice });
  assert.equal(notSub.status, 400);
  assert.equal(notSub.body.msg, `Not subscribed to stream ID ${open}`);
  const hidden = await s.api('POST', P, { subscription_data: [{ stream_id: secret, property: 'pin_to_top', value: true }] }, { as: alice });
  assert.equal(hidden.status, 400);
  assert.equal(hidden.body.msg, 'Invalid stream ID');
});

test('PATCH /users/me/subscriptions/{stream_id} sets one property, JSON or plain colour', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const general = await streamId(s, 'general');
  await s.ok('PATCH', `/api/v1/users/me/subscriptions/${general}`, { property: 'color', value: '#00ff00' });
  await s.ok('PATCH', `/api/v1/users/me/subscriptions/${general}`, { property: 'is_muted', value: true });
  const sub = await mySub(s, 'general');
  assert.equal(sub.color, '#00ff00');
  assert.equal(sub.is_muted, true);
  const bad = await s.api('PATCH', `/api/v1/users/me/subscriptions/${general}`, { property: 'is_muted', value: 'maybe' });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.msg, 'is_muted is not a boolean');
});

test('PATCH /users/me/subscriptions adds (with a colour) and removes in one request', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const res = await s.ok('PATCH', '/api/v1/users/me/subscriptions', { add: [{ name: 'design', color: '#123456' }], delete: ['general'] });
  assert.deepEqual(res.subscribed, { [s.owner.email]: ['design'] });
  assert.deepEqual(res.already_subscribed, {});
  assert.deepEqual(res.removed, ['general']);
  assert.deepEqual(res.not_removed, []);
  const { subscriptions } = await s.ok('GET', '/api/v1/users/me/subscriptions');
  assert.deepEqual(subscriptions.map((x: any) => [x.name, x.color]), [['design', '#123456']]);
  const nothing = await s.api('PATCH', '/api/v1/users/me/subscriptions', {});
  assert.equal(nothing.status, 400);
  assert.equal(nothing.body.msg, 'Nothing to do. Specify at least one of "add" or "delete".');
  // A failing delete leaves the add undone too: one transaction.
  const failing = await s.api('PATCH', '/api/v1/users/me/subscriptions', { add: [{ name: 'later' }], delete: ['nowhere'] });
  assert.equal(failing.body.code, 'STREAM_DOES_NOT_EXIST');
  const after = await s.ok('GET', '/api/v1/users/me/subscriptions');
  assert.deepEqual(after.subscriptions.map((x: any) => x.name), ['design']);
  const later = await db(s).selectFrom('streams').select('id').where('name', '=', 'later').executeTakeFirst();
  assert.equal(later, undefined);
});
