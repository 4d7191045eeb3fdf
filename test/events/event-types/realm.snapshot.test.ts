// Every snapshot group of this area, checked against the reference's register response schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../../helpers/server.ts';
import { checkResponse } from '../../helpers/openapi.ts';
import { realmGroup } from '../../../src/events/event-types/realm.ts';
import { realmEmojiGroup } from '../../../src/events/event-types/realm_emoji.ts';
import { realmFiltersGroup, realmLinkifiersGroup } from '../../../src/events/event-types/realm_linkifiers.ts';
import { defaultStreamsGroup } from '../../../src/events/event-types/default_streams.ts';
import { defaultStreamGroupsGroup } from '../../../src/events/event-types/default_stream_groups.ts';
import { realmBotGroup } from '../../../src/events/event-types/realm_bot.ts';
import { realmUserSettingsDefaultsGroup } from '../../../src/events/event-types/realm_user_settings_defaults.ts';

test('the snapshot groups match the reference register schema', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await s.ok('POST', '/api/v1/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/{id}' });
  await s.ok('POST', '/api/v1/bots', { full_name: 'Bot', short_name: 'bot' });
  const db = s.server.app.db.kysely;
  const realm = await db.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
  const user = await db.selectFrom('users').selectAll().where('id', '=', s.owner.id).executeTakeFirstOrThrow();
  const ctx = { app: s.server.app, realm, user, clientCapabilities: { linkifier_url_template: true }, applyMarkdown: true, clientExternalAvatar: true, includeSubscribers: false, slimPresence: false };
  const body: Record<string, unknown> = { result: 'success', msg: '', queue_id: 'q', last_event_id: -1 };
  for (const group of [realmGroup, realmEmojiGroup, realmLinkifiersGroup, realmFiltersGroup, defaultStreamsGroup, realmBotGroup, realmUserSettingsDefaultsGroup]) {
    Object.assign(body, await group(ctx));
  }
  const errors = checkResponse('POST', '/api/v1/register', body);
  // Known differences of feature level 186 from the reference's 372: the spec's default
  // streams are stream objects (the reference now sends IDs); authentication methods were
  // booleans before level 243.
  const known = [/^\/realm_default_streams\/\d+ must be integer/, /^\/realm_authentication_methods\//];
  assert.deepEqual(errors.filter((e) => !known.some((k) => k.test(e))), []);
  assert.equal((body.realm_linkifiers as unknown[]).length, 1);
  assert.equal((body.realm_bots as unknown[]).length, 1);
  assert.deepEqual(Object.keys(await defaultStreamGroupsGroup(ctx)), ['realm_default_stream_groups']);
});
