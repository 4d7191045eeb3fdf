import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { realmById } from '../../src/db/queries/realms.ts';
import { realmSettings } from '../../src/lib/realm.ts';
import { realmGroup } from '../../src/events/event-types/realm.ts';
import { realmUserSettingsDefaultsGroup } from '../../src/events/event-types/realm_user_settings_defaults.ts';

const ADMIN = 200;

async function currentRealm(s: Awaited<ReturnType<typeof startServer>>) {
  const realm = await s.server.app.db.kysely.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
  return (await realmById(s.server.app.db.kysely, realm.id))!;
}

test('PATCH /realm changes name, description and settings, and announces each change', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  s.published.length = 0;
  await s.ok('PATCH', '/api/v1/realm', {
    name: 'New Name',
    description: 'We **build** things',
    mandatory_topics: true,
    move_messages_within_stream_limit_seconds: 5,
    message_content_edit_limit_seconds: 'unlimited',
    create_public_stream_policy: 2,
    default_language: 'de',
  });
  const realm = await currentRealm(s);
  assert.equal(realm.name, 'New Name');
  assert.equal(realm.description, 'We **build** things');
  const settings = realmSettings(realm);
  assert.equal(settings.mandatory_topics, true);
  assert.equal(settings.move_messages_within_stream_limit_seconds, 5);
  assert.equal(settings.message_content_edit_limit_seconds, null);
  assert.equal(settings.create_public_stream_policy, 2);
  assert.equal(settings.default_language, 'de');
  // Events come in the order settings are declared; compare them as a set.
  const sorted = (list: unknown[]) => list.map((e) => JSON.stringify(e)).sort();
  const events = s.published.map((p) => p.event);
  assert.deepEqual(sorted(events), sorted([
    { type: 'realm', op: 'update', property: 'name', value: 'New Name' },
    { type: 'realm', op: 'update', property: 'description', value: 'We **build** things' },
    { type: 'realm', op: 'update', property: 'mandatory_topics', value: true },
    { type: 'realm', op: 'update', property: 'move_messages_within_stream_limit_seconds', value: 5 },
    { type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: null } },
    { type: 'realm', op: 'update', property: 'create_public_stream_policy', value: 2 },
    { type: 'realm', op: 'update', property: 'default_language', value: 'de' },
  ]));
  for (const p of s.published) assert.deepEqual(p.userIds.sort(), [s.owner.id, alice.id].sort());
  // The snapshot group shows the new values under their register names.
  const snap = await realmGroup({ app: s.server.app, realm, user: null, clientCapabilities: {}, applyMarkdown: true, clientExternalAvatar: true, includeSubscribers: false, slimPresence: false });
  assert.equal(snap.realm_name, 'New Name');
  assert.equal(snap.realm_mandatory_topics, true);
  assert.equal(snap.realm_move_messages_within_stream_limit_seconds, 5);
  assert.equal(snap.realm_message_content_edit_limit_seconds, null);
  assert.equal(snap.realm_bot_domain, 'localhost');
  assert.equal(typeof snap.realm_notifications_stream_id, 'number');
  assert.equal(snap.realm_allow_message_editing, true);
});

test('an unchanged value sends no event; allow_message_editing and edit_topic_policy use update_dict', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  s.published.length = 0;
  await s.ok('PATCH', '/api/v1/realm', { allow_message_editing: true });
  assert.equal(s.published.length, 0);
  await s.ok('PATCH', '/api/v1/realm', { allow_message_editing: false, edit_topic_policy: 2 });
  assert.deepEqual(s.published.map((p) => p.event), [
    { type: 'realm', op: 'update_dict', property: 'default', data: { allow_message_editing: false } },
    { type: 'realm', op: 'update_dict', property: 'default', data: { edit_topic_policy: 2 } },
  ]);
});

test('PATCH /realm validates every value', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ name: '' }, /cannot be empty/],
    [{ name: 'x'.repeat(41) }, /too long/],
    [{ edit_topic_policy: 9 }, /Invalid edit_topic_policy/],
    [{ move_messages_within_stream_limit_seconds: 0 }, /Bad value/],
    [{ move_messages_between_streams_limit_seconds: -5 }, /Bad value/],
    [{ mandatory_topics: 'yes' }, /not a boolean/],
    [{ notifications_stream_id: 9999 }, /Invalid stream ID/],
    [{ waiting_period_threshold: -1 }, /Invalid waiting_period_threshold/],
    [{ email_address_visibility: 7 }, /Invalid email_address_visibility/],
    [{ message_retention_days: 0 }, /Bad value/],
    [{ video_chat_provider: 42 }, /Invalid video_chat_provider/],
  ];
  for (const [params, msg] of cases) {
    const res = await s.api('PATCH', '/api/v1/realm', params);
    assert.equal(res.status, 400, JSON.stringify(params));
    assert.equal(res.body.code, 'BAD_REQUEST');
    assert.match(res.body.msg, msg, JSON.stringify(params));
  }
  const realm = await currentRealm(s);
  assert.equal(realm.name, 'Test Org');
});

test('members may not change realm settings; owner-only settings are refused to administrators', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const member = await s.createUser('Member');
  const admin = await s.createUser('Admin', { role: ADMIN });
  const refused = await s.api('PATCH', '/api/v1/realm', { name: 'Mine' }, { as: member });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.msg, 'Must be an organization administrator');
  for (const params of [{ invite_required: false }, { waiting_period_threshold: 3 }, { message_retention_days: 30 }, { emails_restricted_to_domains: true }]) {
    const res = await s.api('PATCH', '/api/v1/realm', params, { as: admin });
    assert.equal(res.status, 400, JSON.stringify(params));
    assert.equal(res.body.msg, 'Must be an organization owner');
  }
  await s.ok('PATCH', '/api/v1/realm', { name: 'Admin Org', allow_edit_history: false }, admin);
  await s.ok('PATCH', '/api/v1/realm', { waiting_period_threshold: 3, message_retention_days: 'unlimited' });
  const settings = realmSettings(await currentRealm(s));
  assert.equal(settings.waiting_period_threshold, 3);
  assert.equal(settings.allow_edit_history, false);
});

test('the announcement streams take a stream of the realm or -1', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  s.published.length = 0;
  await s.ok('PATCH', '/api/v1/realm', { notifications_stream_id: -1 });
  assert.deepEqual(s.published.map((p) => p.event), [{ type: 'realm', op: 'update', property: 'notifications_stream_id', value: -1 }]);
  const { stream_id } = await s.ok('GET', '/api/v1/get_stream_id', { stream: 'general' });
  await s.ok('PATCH', '/api/v1/realm', { signup_notifications_stream_id: -1 });
  await s.ok('PATCH', '/api/v1/realm', { signup_notifications_stream_id: stream_id });
  assert.equal(realmSettings(await currentRealm(s)).signup_notifications_stream_id, stream_id);
});

test('PATCH /realm/user_settings_defaults changes new users\' defaults with events; members refused', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const member = await s.createUser('Member');
  s.published.length = 0;
  await s.ok('PATCH', '/api/v1/realm/user_settings_defaults', { twenty_four_hour_time: true, emojiset: 'text', color_scheme: 2 });
  assert.deepEqual(s.published.map((p) => p.event), [
    { type: 'realm_user_settings_defaults', op: 'update', property: 'twenty_four_hour_time', value: true },
    { type: 'realm_user_settings_defaults', op: 'update', property: 'color_scheme', value: 2 },
    { type: 'realm_user_settings_defaults', op: 'update', property: 'emojiset', value: 'text' },
  ]);
  const realm = await currentRealm(s);
  const snap = await realmUserSettingsDefaultsGroup({ app: s.server.app, realm, user: null, clientCapabilities: {}, applyMarkdown: true, clientExternalAvatar: true, includeSubscribers: false, slimPresence: false });
  const d = snap.realm_user_settings_defaults as Record<string, unknown>;
  assert.equal(d.twenty_four_hour_time, true);
  assert.equal(d.emojiset, 'text');
  assert.equal(d.color_scheme, 2);
  assert.equal(d.enter_sends, false);
  assert.equal('timezone' in d, false);
  const bad = await s.api('PATCH', '/api/v1/realm/user_settings_defaults', { emojiset: 'comic' });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.msg, 'Invalid emojiset');
  const badScheme = await s.api('PATCH', '/api/v1/realm/user_settings_defaults', { color_scheme: 7 });
  assert.equal(badScheme.body.msg, 'Invalid color_scheme');
  const refused = await s.api('PATCH', '/api/v1/realm/user_settings_defaults', { enter_sends: true }, { as: member });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.msg, 'Must be an organization administrator');
});

/** A valid value other than the server's default, for each setting that is not a boolean. */
const OTHER_VALUES: Record<string, unknown> = {
  web_mark_read_on_scroll_policy: 2,
  color_scheme: 2,
  default_view: 'all_messages',
  emojiset: 'text',
  demote_inactive_streams: 2,
  user_list_style: 3,
  notification_sound: 'ding',
  desktop_icon_count_display: 2,
  realm_name_in_email_notifications_policy: 2,
  automatically_follow_topics_policy: 1,
  automatically_unmute_topics_in_muted_streams_policy: 1,
  email_address_visibility: 2,
  email_notifications_batching_period_seconds: 300,
};

test('users created after PATCH /realm/user_settings_defaults start from every one of the organization\'s defaults', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const before = await s.createUser('Before');
  const fresh = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['user_settings', 'realm_user_settings_defaults'] }, before);
  const serverDefaults = fresh.user_settings as Record<string, unknown>;
  // As in the reference, the language (the browser's) and login emails are not taken from them.
  const skipped = new Set(['default_language', 'enable_login_emails']);
  const changes: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(fresh.realm_user_settings_defaults as Record<string, unknown>)) {
    if (skipped.has(name)) continue;
    if (typeof def === 'boolean') changes[name] = !def;
    else {
      assert.ok(name in OTHER_VALUES, `no other value for the setting ${name}`);
      changes[name] = OTHER_VALUES[name];
    }
  }
  for (const name of ['left_side_userlist', 'twenty_four_hour_time', 'enter_sends', 'emojiset']) assert.ok(name in changes, name);
  await s.ok('PATCH', '/api/v1/realm/user_settings_defaults', { ...changes, default_language: 'de', enable_login_emails: false });

  const after = await s.createUser('After');
  const got = (await s.ok('POST', '/api/v1/register', { fetch_event_types: ['user_settings'] }, after)).user_settings as Record<string, unknown>;
  assert.deepEqual(got, { ...serverDefaults, ...changes });
  // Existing users keep their settings; bots keep the server's defaults, as in the reference.
  const unchanged = (await s.ok('POST', '/api/v1/register', { fetch_event_types: ['user_settings'] }, before)).user_settings;
  assert.deepEqual(unchanged, serverDefaults);
  const bot = await s.ok('POST', '/api/v1/bots', { full_name: 'Helper', short_name: 'helper' });
  const botSettings = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['user_settings'] }, { id: bot.user_id, email: 'helper-bot@localhost', apiKey: bot.api_key });
  assert.deepEqual(botSettings.user_settings, serverDefaults);
});

test('the video call server takes an http(s) URL, plain or JSON-encoded, or default', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await s.ok('PATCH', '/api/v1/realm', { video_chat_server_url: 'https://meet.example.com' });
  assert.equal(realmSettings(await currentRealm(s)).video_chat_server_url, 'https://meet.example.com');
  await s.ok('PATCH', '/api/v1/realm', { video_chat_server_url: JSON.stringify('default') });
  assert.equal(realmSettings(await currentRealm(s)).video_chat_server_url, null);
  const bad = await s.api('PATCH', '/api/v1/realm', { video_chat_server_url: 'ftp://files.example.com' });
  assert.equal(bad.status, 400);
});
