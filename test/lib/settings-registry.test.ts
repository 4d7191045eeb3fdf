// The settings registry (src/lib/settings-registry.ts): each setting is declared once, and the
// endpoints, snapshots and events follow the declaration. Where two copies disagreed before, the
// spec or the reference decides, and the test says which.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { kinds, verifyAction } from '../helpers/verify.ts';
import { REGISTER_TABLE } from '../helpers/register-table.ts';
import { legacySettingNames, REALM_DEFAULT_NAMES, USER_SETTING_NAMES, userSetting } from '../../src/lib/settings-registry.ts';

type Server = Awaited<ReturnType<typeof startServer>>;

/** Status and message of a PATCH, for comparing two endpoints' answers. */
async function answer(s: Server, path: string, params: Record<string, unknown>): Promise<string> {
  const res = await s.api('PATCH', path, params);
  return `${res.status} ${res.status === 200 ? '' : res.body.msg}`;
}

test('PATCH /settings and PATCH /realm/user_settings_defaults accept and refuse the same values', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  // The values the two tables disagreed on, decided by the spec and the reference:
  // - default_view: the spec's values at our feature level are `recent_topics` and `all_messages`
  //   (the reference's `inbox` came with web_home_view at feature level 219);
  // - default_language: "a standard language code that the server has translation data for",
  //   so a well-formed code without translations is refused;
  // - notification_sound: one of the available sounds or `none`, not any word.
  const cases: [Record<string, unknown>, string][] = [
    [{ default_view: 'inbox' }, '400 Invalid default_view'],
    [{ web_home_view: 'inbox' }, '400 Invalid default_view'],
    [{ default_view: 'all_messages' }, '200 '],
    [{ default_language: 'xx' }, '400 Invalid default_language'],
    [{ default_language: 'pt-br' }, '200 '],
    [{ notification_sound: 'boom' }, '400 Invalid notification_sound'],
    [{ notification_sound: 'none' }, '200 '],
    [{ notification_sound: 'chime' }, '200 '],
    [{ emojiset: 'apple' }, '400 Invalid emojiset'],
    [{ color_scheme: 4 }, '400 Invalid color_scheme'],
    [{ color_scheme: 'dark' }, '400 color_scheme is not an integer'],
    [{ enter_sends: 'maybe' }, '400 enter_sends is not a boolean'],
    [{ email_notifications_batching_period_seconds: 10 }, '400 Invalid email_notifications_batching_period_seconds'],
    [{ automatically_follow_topics_policy: 4 }, '200 '],
    [{ automatically_follow_topics_policy: 5 }, '400 Invalid automatically_follow_topics_policy'],
  ];
  for (const [params, expected] of cases) {
    assert.equal(await answer(s, '/api/v1/settings', params), expected, `PATCH /settings ${JSON.stringify(params)}`);
    assert.equal(await answer(s, '/api/v1/realm/user_settings_defaults', params), expected, `PATCH /realm/user_settings_defaults ${JSON.stringify(params)}`);
  }
  // The newer name reaches the same setting on both.
  const snap = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['user_settings', 'realm_user_settings_defaults'] });
  assert.equal((snap.user_settings as Record<string, unknown>).default_view, 'all_messages');
  assert.equal((snap.realm_user_settings_defaults as Record<string, unknown>).default_view, 'all_messages');
});

test('the organization language is one with translations, as the reference checks it', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bad = await s.api('PATCH', '/api/v1/realm', { default_language: 'xx' });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.msg, 'Invalid default_language');
  await s.ok('PATCH', '/api/v1/realm', { default_language: 'zh-hans' });
  const snap = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['realm'] });
  assert.equal(snap.realm_default_language, 'zh-hans');
});

test('the legacy groups and events follow the reference\'s legacy lists', () => {
  // REGISTER_TABLE is checked against the reference's /register description (register-groups.test.ts).
  const fields = (group: string, extra: string) => REGISTER_TABLE[group]!.filter((k) => k !== extra).sort();
  // dense_mode was in the display list at our feature level; the reference took it out later.
  const display = legacySettingNames('update_display_settings').filter((n) => n !== 'dense_mode');
  assert.deepEqual(display.sort(), fields('update_display_settings', 'emojiset_choices'));
  assert.deepEqual([...legacySettingNames('update_global_notifications')].sort(), fields('update_global_notifications', 'available_notification_sounds'));
  // Every setting but the time zone is also an organization default.
  assert.deepEqual(USER_SETTING_NAMES.filter((n) => !REALM_DEFAULT_NAMES.includes(n)), ['timezone']);
  assert.equal(userSetting('default_view')!.alias, 'web_home_view');
  assert.equal(userSetting('toString'), undefined);
});

test('a setting outside the legacy lists has no legacy event; the ones inside have theirs', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const legacy = { register: { client_capabilities: {} } };
  // Before, every setting outside one list got update_global_notifications, and the display list
  // had settings the reference's has not (user_list_style) and lacked one it has (drafts).
  const none = await verifyAction(s, s.owner, () => s.ok('PATCH', '/api/v1/settings', { send_read_receipts: false, user_list_style: 3 }), legacy);
  assert.deepEqual(kinds(none), ['user_settings:update', 'user_settings:update']);
  const display = await verifyAction(s, s.owner, () => s.ok('PATCH', '/api/v1/settings', { enable_drafts_synchronization: false }), legacy);
  assert.deepEqual(kinds(display), ['user_settings:update', 'update_display_settings']);
  const language = await verifyAction(s, s.owner, () => s.ok('PATCH', '/api/v1/settings', { default_language: 'fr' }), legacy);
  assert.deepEqual(language.map((e) => e.language_name), ['Français', 'Français']);
  const notification = await verifyAction(s, s.owner, () => s.ok('PATCH', '/api/v1/settings', { email_notifications_batching_period_seconds: 600 }), legacy);
  assert.deepEqual(kinds(notification), ['user_settings:update', 'update_global_notifications']);
});

test('PATCH /realm takes every declared setting: each change is one event of its declared form, and the snapshot shows it', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const changed = await verifyAction(s, s.owner, () => s.ok('PATCH', '/api/v1/realm', {
    video_chat_server_url: 'https://meet.example.com',
    message_content_edit_limit_seconds: 60,
    digest_weekday: 4,
  }), { register: { fetch_event_types: ['realm'] } });
  assert.deepEqual(kinds(changed), ['realm:update_dict', 'realm:update', 'realm:update']);
  const snap = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['realm'] });
  assert.equal(snap.realm_video_chat_server_url, 'https://meet.example.com');
  assert.equal(snap.realm_digest_weekday, 4);
  assert.equal('realm_email_address_visibility' in snap, false);
  // plan_type is the server's: not a parameter, so it is ignored rather than applied.
  const res = await s.api('PATCH', '/api/v1/realm', { plan_type: 3 });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.ignored_parameters_unsupported, ['plan_type']);
  assert.equal((await s.ok('POST', '/api/v1/register', { fetch_event_types: ['realm'] })).realm_plan_type, 1);
});
