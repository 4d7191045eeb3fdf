// client_capabilities reshape events per client: legacy settings events, one-by-one message
// deletion, no linkifier events for clients that cannot read URL templates.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QueueManager } from '../../src/events/manager.ts';
import type { ClientCapabilities } from '../../src/events/event-type.ts';
import { createLogger } from '../../src/log.ts';
import { startServer } from '../helpers/server.ts';

const NONE: ClientCapabilities = {
  notification_settings_null: false,
  bulk_message_deletion: false,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: false,
  user_settings_object: false,
  linkifier_url_template: false,
};
const ALL: ClientCapabilities = Object.fromEntries(Object.keys(NONE).map((k) => [k, true])) as unknown as ClientCapabilities;

function queueWith(manager: QueueManager, capabilities: ClientCapabilities) {
  return manager.create(
    { userId: 7, realmId: 1, applyMarkdown: true, clientExternalAvatar: false, includeSubscribers: false, allPublicStreams: false, narrow: [], capabilities },
    null,
  );
}

test('capabilities decide the form of settings, deletion and linkifier events', (t) => {
  const manager = new QueueManager({ timeoutSeconds: 600, heartbeatSeconds: 50, log: createLogger('silent') });
  t.after(() => manager.stop());
  const legacy = queueWith(manager, NONE);
  const modern = queueWith(manager, ALL);
  manager.publish({ type: 'user_settings', op: 'update', property: 'emojiset', value: 'text' }, [7]);
  manager.publish({ type: 'user_settings', op: 'update', property: 'enable_sounds', value: false }, [7]);
  manager.publish({ type: 'delete_message', message_type: 'stream', stream_id: 3, topic: 't', message_ids: [4, 5] }, [7]);
  manager.publish({ type: 'realm_linkifiers', realm_linkifiers: [] }, [7]);
  const strip = (q: typeof legacy) => q.newerThan(-1).map(({ id: _id, ...e }) => e);
  assert.deepEqual(strip(legacy), [
    { type: 'user_settings', op: 'update', property: 'emojiset', value: 'text' },
    { type: 'update_display_settings', user: '', setting_name: 'emojiset', setting: 'text' },
    { type: 'user_settings', op: 'update', property: 'enable_sounds', value: false },
    { type: 'update_global_notifications', user: '', notification_name: 'enable_sounds', setting: false },
    { type: 'delete_message', message_type: 'stream', stream_id: 3, topic: 't', message_id: 4 },
    { type: 'delete_message', message_type: 'stream', stream_id: 3, topic: 't', message_id: 5 },
  ]);
  assert.deepEqual(strip(modern), [
    { type: 'user_settings', op: 'update', property: 'emojiset', value: 'text' },
    { type: 'user_settings', op: 'update', property: 'enable_sounds', value: false },
    { type: 'delete_message', message_type: 'stream', stream_id: 3, topic: 't', message_ids: [4, 5] },
    { type: 'realm_linkifiers', realm_linkifiers: [] },
  ]);
});

test('register: settings as an object with user_settings_object, also top-level without; bad capabilities are 400', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const modern = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['user_settings'], client_capabilities: { user_settings_object: true } });
  assert.equal(modern.user_settings.emojiset, 'google');
  assert.equal('emojiset' in modern, false);
  const legacy = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['user_settings'] });
  assert.equal(legacy.emojiset, 'google');
  const bad = await s.api('POST', '/api/v1/register', { client_capabilities: { user_settings_object: 'yes' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 'BAD_REQUEST');
  const badNarrow = await s.api('POST', '/api/v1/register', { narrow: [['nonsense', 'x']] });
  assert.equal(badNarrow.status, 400);
});

test('subscriptions: notification settings are null with notification_settings_null, booleans without', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const nulls = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['subscription'], client_capabilities: { notification_settings_null: true } });
  assert.equal(nulls.subscriptions[0].desktop_notifications, null);
  const bools = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['subscription'] });
  assert.equal(bools.subscriptions[0].desktop_notifications, false);
  assert.equal(bools.subscriptions[0].wildcard_mentions_notify, true);
});
