import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { userSettingsSnapshot } from '../../src/events/event-types/user_settings.ts';
import { USER_SETTING_DEFAULTS } from '../../src/lib/settings-registry.ts';
import { setRealmSettings } from '../helpers/factories.ts';

async function snapshot(s: Awaited<ReturnType<typeof startServer>>, userId: number): Promise<Record<string, any>> {
  const app = s.server.app;
  const user = await app.db.kysely.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const realm = await app.db.kysely.selectFrom('realms').selectAll().where('id', '=', user.realm_id).executeTakeFirstOrThrow();
  const out = await userSettingsSnapshot({ app, realm, user, clientCapabilities: {}, applyMarkdown: false, clientExternalAvatar: false, includeSubscribers: false, slimPresence: false });
  return out.user_settings as Record<string, any>;
}

test('PATCH /settings stores each kind of setting and sends user_settings events to the user only', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  s.published.length = 0;
  await s.ok('PATCH', '/api/v1/settings', {
    twenty_four_hour_time: true,
    color_scheme: 2,
    default_language: 'de',
    emojiset: 'text',
    web_home_view: 'all_messages',
    enable_sounds: false,
    email_notifications_batching_period_seconds: 300,
    notification_sound: 'ding',
  }, alice);
  const settings = await snapshot(s, alice.id);
  assert.equal(settings.twenty_four_hour_time, true);
  assert.equal(settings.color_scheme, 2);
  assert.equal(settings.default_language, 'de');
  assert.equal(settings.emojiset, 'text');
  assert.equal(settings.default_view, 'all_messages');
  assert.equal(settings.enable_sounds, false);
  assert.equal(settings.email_notifications_batching_period_seconds, 300);
  assert.equal(settings.notification_sound, 'ding');
  assert.equal(settings.dense_mode, USER_SETTING_DEFAULTS.dense_mode);
  assert.ok(settings.emojiset_choices.some((c: any) => c.key === 'google'));
  const events = s.published.map((p) => [p.event, p.userIds]);
  assert.equal(events.length, 8);
  assert.deepEqual(events.find(([e]) => (e as any).property === 'default_language'), [
    { type: 'user_settings', op: 'update', property: 'default_language', value: 'de', language_name: 'Deutsch' },
    [alice.id],
  ]);
  assert.deepEqual(events[0], [{ type: 'user_settings', op: 'update', property: 'twenty_four_hour_time', value: true }, [alice.id]]);
  // The same value again changes nothing and sends nothing.
  s.published.length = 0;
  await s.ok('PATCH', '/api/v1/settings', { color_scheme: 2 }, alice);
  assert.equal(s.published.length, 0);
});

test('PATCH /settings refuses values outside each setting\'s allowed set', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const cases: [Record<string, unknown>, string][] = [
    [{ color_scheme: 4 }, 'Invalid color_scheme'],
    [{ emojiset: 'apple' }, 'Invalid emojiset'],
    [{ default_language: 'xx' }, 'Invalid default_language'],
    [{ default_view: 'inbox' }, 'Invalid default_view'],
    [{ timezone: 'Mars/Olympus' }, 'Invalid timezone'],
    [{ notification_sound: 'boom' }, 'Invalid notification_sound'],
    [{ web_mark_read_on_scroll_policy: 0 }, 'Invalid web_mark_read_on_scroll_policy'],
    [{ email_notifications_batching_period_seconds: 10 }, 'Invalid email_notifications_batching_period_seconds'],
    [{ enter_sends: 'maybe' }, 'enter_sends is not a boolean'],
  ];
  for (const [params, msg] of cases) {
    const res = await s.api('PATCH', '/api/v1/settings', params);
    assert.equal(res.status, 400, msg);
    assert.equal(res.body.code, 'BAD_REQUEST');
    assert.equal(res.body.msg, msg);
  }
});

test('timezone and full name changes reach everyone through realm_user updates', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  s.published.length = 0;
  await s.ok('PATCH', '/api/v1/settings', { timezone: 'Europe/Berlin', full_name: 'Alice Liddell' }, alice);
  const me = await s.ok('GET', '/api/v1/users/me', {}, alice);
  assert.equal(me.timezone, 'Europe/Berlin');
  assert.equal(me.full_name, 'Alice Liddell');
  const everyone = [s.owner.id, alice.id].sort();
  assert.deepEqual(s.published.map((p) => [p.event, p.userIds.sort()]), [
    [{ type: 'realm_user', op: 'update', person: { user_id: alice.id, full_name: 'Alice Liddell' } }, everyone],
    [{ type: 'realm_user', op: 'update', person: { user_id: alice.id, timezone: 'Europe/Berlin' } }, everyone],
    [{ type: 'user_settings', op: 'update', property: 'timezone', value: 'Europe/Berlin' }, [alice.id]],
  ]);
  const bad = await s.api('PATCH', '/api/v1/settings', { full_name: 'x'.repeat(101) }, { as: alice });
  assert.equal(bad.body.msg, 'Name too long!');
});

test('name changes can be disabled for non-administrators', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  await setRealmSettings(s, { name_changes_disabled: true });
  const res = await s.api('PATCH', '/api/v1/settings', { full_name: 'New Name' }, { as: alice });
  assert.equal(res.status, 400);
  assert.equal(res.body.msg, 'Name changes disabled in this organization.');
  await s.ok('PATCH', '/api/v1/settings', { full_name: 'Boss' });
});

test('password change needs the old password and a strong new one', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const wrong = await s.api('PATCH', '/api/v1/settings', { old_password: 'nope', new_password: 'another-secret' });
  assert.equal(wrong.body.msg, 'Wrong password!');
  const weak = await s.api('PATCH', '/api/v1/settings', { old_password: 'owner-password', new_password: 'x' });
  assert.equal(weak.status, 400);
  await s.ok('PATCH', '/api/v1/settings', { old_password: 'owner-password', new_password: 'another-secret' });
  const key = await s.api('POST', '/api/v1/fetch_api_key', { username: s.owner.email, password: 'another-secret' }, { as: null });
  assert.equal(key.status, 200);
});

test('turning presence off is also a user_status away event for the realm', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  s.published.length = 0;
  await s.ok('PATCH', '/api/v1/settings', { presence_enabled: false }, alice);
  assert.deepEqual(s.published.map((p) => [p.event, p.userIds.sort()]), [
    [{ type: 'user_settings', op: 'update', property: 'presence_enabled', value: false }, [alice.id]],
    [{ type: 'user_status', user_id: alice.id, away: true }, [s.owner.id, alice.id].sort()],
  ]);
});

test('turning drafts synchronization off is accepted and announced', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  s.published.length = 0;
  await s.ok('PATCH', '/api/v1/settings', { enable_drafts_synchronization: false });
  assert.deepEqual(s.published.map((p) => p.event), [{ type: 'user_settings', op: 'update', property: 'enable_drafts_synchronization', value: false }]);
});

test('legacy settings events for clients without user_settings_object', async () => {
  const { legacySettingEvent } = await import('../../src/lib/user-settings.ts');
  assert.deepEqual(legacySettingEvent({ property: 'default_language', value: 'de', language_name: 'Deutsch' }, 'a@example.com'), {
    type: 'update_display_settings', user: 'a@example.com', setting_name: 'default_language', setting: 'de', language_name: 'Deutsch',
  });
  assert.deepEqual(legacySettingEvent({ property: 'enable_sounds', value: false }, 'a@example.com'), {
    type: 'update_global_notifications', user: 'a@example.com', notification_name: 'enable_sounds', setting: false,
  });
  assert.equal(legacySettingEvent({ property: 'send_read_receipts', value: false }, 'a@example.com'), null);
});
