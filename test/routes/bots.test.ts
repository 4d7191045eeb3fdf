import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Account, type TestServer } from '../helpers/server.ts';
import { realmBotGroup } from '../../src/events/event-types/realm_bot.ts';

async function botsSnapshot(s: TestServer, userId: number) {
  const db = s.server.app.db.kysely;
  const realm = await db.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  return (await realmBotGroup({ app: s.server.app, realm, user, clientCapabilities: {}, applyMarkdown: true, clientExternalAvatar: true, includeSubscribers: false, slimPresence: false })).realm_bots as any[];
}

test('a member creates a bot that authenticates like a user; events reach the right people', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  s.published.length = 0;
  const res = await s.ok('POST', '/api/v1/bots', { full_name: 'Build Bot', short_name: 'build', default_sending_stream: 'general' }, alice);
  assert.equal(typeof res.api_key, 'string');
  assert.equal(res.default_sending_stream, 'general');
  assert.equal(res.default_events_register_stream, null);
  assert.equal(res.default_all_public_streams, false);
  const bot: Account = { id: res.user_id, email: 'build-bot@localhost', apiKey: res.api_key };
  const me = await s.ok('GET', '/api/v1/users/me', {}, bot);
  assert.equal(me.email, 'build-bot@localhost');
  assert.equal(me.is_bot, true);
  assert.equal(me.bot_type, 1);
  assert.equal(me.bot_owner_id, alice.id);

  const add = s.published.find((p) => p.event.type === 'realm_bot')!;
  assert.deepEqual(add.userIds.sort(), [s.owner.id, alice.id].sort());
  assert.deepEqual(add.event, {
    type: 'realm_bot',
    op: 'add',
    bot: {
      user_id: bot.id,
      email: 'build-bot@localhost',
      full_name: 'Build Bot',
      bot_type: 1,
      is_active: true,
      api_key: res.api_key,
      default_sending_stream: 'general',
      default_events_register_stream: null,
      default_all_public_streams: false,
      avatar_url: res.avatar_url,
      owner_id: alice.id,
      services: [],
    },
  });
  const person = s.published.find((p) => p.event.type === 'realm_user')!;
  assert.equal(person.event.op, 'add');
  assert.equal(person.event.person.user_id, bot.id);
  assert.deepEqual(person.userIds.sort(), [s.owner.id, alice.id, bob.id, bot.id].sort());

  assert.deepEqual((await s.ok('GET', '/api/v1/bots', {}, alice)).bots, [add.event.bot]);
  assert.deepEqual((await s.ok('GET', '/api/v1/bots', {}, bob)).bots, []);
  assert.deepEqual((await s.ok('GET', '/api/v1/bots')).bots, [add.event.bot]);
  assert.deepEqual(await botsSnapshot(s, alice.id), [add.event.bot]);
  assert.deepEqual(await botsSnapshot(s, bob.id), []);

  const dup = await s.api('POST', '/api/v1/bots', { full_name: 'Other', short_name: 'build' }, { as: bob });
  assert.equal(dup.status, 400);
  assert.equal(dup.body.msg, 'Username already in use');
  const bad = await s.api('POST', '/api/v1/bots', { full_name: 'Other', short_name: 'no spaces' });
  assert.equal(bad.body.msg, 'Bad name or username');
});

test('bot_creation_policy limits who may create bots', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const member = await s.createUser('Member');
  await s.ok('PATCH', '/api/v1/realm', { bot_creation_policy: 2 });
  const generic = await s.api('POST', '/api/v1/bots', { full_name: 'G', short_name: 'g' }, { as: member });
  assert.equal(generic.body.msg, 'Must be an organization administrator');
  await s.ok('POST', '/api/v1/bots', { full_name: 'Hook', short_name: 'hook', bot_type: 2 }, member);
  await s.ok('PATCH', '/api/v1/realm', { bot_creation_policy: 3 });
  const any = await s.api('POST', '/api/v1/bots', { full_name: 'Hook2', short_name: 'hook2', bot_type: 2 }, { as: member });
  assert.equal(any.body.msg, 'Must be an organization administrator');
  const outgoing = await s.ok('POST', '/api/v1/bots', { full_name: 'Out', short_name: 'out', bot_type: 3, payload_url: JSON.stringify('https://hooks.example.com/x') });
  const [outBot] = (await s.ok('GET', '/api/v1/bots')).bots.filter((b: any) => b.user_id === outgoing.user_id);
  assert.equal(outBot.services.length, 1);
  assert.equal(outBot.services[0].base_url, 'https://hooks.example.com/x');
  assert.equal(outBot.services[0].interface, 1);
  const embedded = await s.api('POST', '/api/v1/bots', { full_name: 'E', short_name: 'e', bot_type: 4 });
  assert.equal(embedded.body.msg, 'Embedded bots are not enabled.');
});

test('the owner or an administrator changes a bot; others are refused', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  const { user_id: botId } = await s.ok('POST', '/api/v1/bots', { full_name: 'Helper', short_name: 'helper' }, alice);
  const refused = await s.api('PATCH', `/api/v1/bots/${botId}`, { full_name: 'Mine now' }, { as: bob });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.msg, 'Insufficient permission');
  s.published.length = 0;
  const res = await s.ok('PATCH', `/api/v1/bots/${botId}`, { full_name: 'Helper Two', default_all_public_streams: true }, alice);
  assert.equal(res.full_name, 'Helper Two');
  assert.equal(res.default_all_public_streams, true);
  assert.deepEqual(s.published.map((p) => p.event), [
    { type: 'realm_user', op: 'update', person: { user_id: botId, full_name: 'Helper Two' } },
    { type: 'realm_bot', op: 'update', bot: { user_id: botId, full_name: 'Helper Two' } },
    { type: 'realm_bot', op: 'update', bot: { user_id: botId, default_all_public_streams: true } },
  ]);
  assert.deepEqual(s.published[1]!.userIds.sort(), [s.owner.id, alice.id].sort());
  s.published.length = 0;
  const owner = await s.ok('PATCH', `/api/v1/bots/${botId}`, { bot_owner_id: bob.id });
  assert.equal(owner.bot_owner, bob.email);
  // Administrators see the new owner; the old owner loses the bot, the new one gains it whole.
  const botEvents = s.published.filter((p) => p.event.type === 'realm_bot');
  assert.deepEqual(botEvents.map((p) => [p.event.op, p.userIds]), [['update', [s.owner.id]], ['delete', [alice.id]], ['add', [bob.id]]]);
  assert.deepEqual(botEvents[0]!.event.bot, { user_id: botId, owner_id: bob.id });
  assert.deepEqual(botEvents[1]!.event.bot, { user_id: botId });
  assert.equal(botEvents[2]!.event.bot.owner_id, bob.id);
  assert.deepEqual((await s.ok('GET', '/api/v1/bots', {}, bob)).bots.map((b: any) => b.user_id), [botId]);
  const badStream = await s.api('PATCH', `/api/v1/bots/${botId}`, { default_sending_stream: 'nowhere' }, { as: bob });
  assert.equal(badStream.body.code, 'STREAM_DOES_NOT_EXIST');
});

test('deactivating a bot stops its API access and announces it', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  const res = await s.ok('POST', '/api/v1/bots', { full_name: 'Temp', short_name: 'temp' }, alice);
  const bot: Account = { id: res.user_id, email: 'temp-bot@localhost', apiKey: res.api_key };
  const refused = await s.api('DELETE', `/api/v1/bots/${bot.id}`, {}, { as: bob });
  assert.equal(refused.body.msg, 'Insufficient permission');
  s.published.length = 0;
  await s.ok('DELETE', `/api/v1/bots/${bot.id}`, {}, alice);
  // It also leaves its streams' subscribers and its system groups.
  assert.deepEqual(s.published.map((p) => [p.event.type, p.event.op]), [
    ['realm_user', 'remove'],
    ['realm_bot', 'remove'],
    ['subscription', 'peer_remove'],
    ['user_group', 'remove_members'],
    ['user_group', 'remove_members'],
  ]);
  assert.deepEqual(s.published[1]!.event.bot, { user_id: bot.id, full_name: 'Temp' });
  const denied = await s.api('GET', '/api/v1/users/me', {}, { as: bot });
  assert.equal(denied.status, 401);
  assert.equal(denied.body.code, 'USER_DEACTIVATED');
  // GET /bots lists active bots only, as the reference does; the snapshot keeps it, inactive.
  assert.deepEqual((await s.ok('GET', '/api/v1/bots', {}, alice)).bots, []);
  assert.deepEqual((await s.ok('GET', '/api/v1/bots')).bots, []);
  const { realm_bots } = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['realm_bot'] }, alice);
  assert.deepEqual(realm_bots.map((b: any) => [b.user_id, b.is_active]), [[bot.id, false]]);
  const humans = await s.api('DELETE', `/api/v1/bots/${alice.id}`);
  assert.equal(humans.body.msg, 'No such bot');
});

test('API keys are regenerated for oneself and for bots; the old key stops working', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const { api_key } = await s.ok('POST', '/api/v1/users/me/api_key/regenerate', {}, alice);
  assert.notEqual(api_key, alice.apiKey);
  assert.equal((await s.api('GET', '/api/v1/users/me', {}, { as: alice })).status, 401);
  const fresh = { ...alice, apiKey: api_key as string };
  await s.ok('GET', '/api/v1/users/me', {}, fresh);

  const res = await s.ok('POST', '/api/v1/bots', { full_name: 'Keyed', short_name: 'keyed' }, fresh);
  s.published.length = 0;
  const regenerated = await s.ok('POST', `/api/v1/bots/${res.user_id}/api_key/regenerate`, {}, fresh);
  assert.notEqual(regenerated.api_key, res.api_key);
  assert.deepEqual(s.published.map((p) => p.event), [{ type: 'realm_bot', op: 'update', bot: { user_id: res.user_id, api_key: regenerated.api_key } }]);
  const old = await s.api('GET', '/api/v1/users/me', {}, { as: { id: res.user_id, email: 'keyed-bot@localhost', apiKey: res.api_key } });
  assert.equal(old.status, 401);
  await s.ok('GET', '/api/v1/users/me', {}, { id: res.user_id, email: 'keyed-bot@localhost', apiKey: regenerated.api_key });
  const bob = await s.createUser('Bob');
  const refused = await s.api('POST', `/api/v1/bots/${res.user_id}/api_key/regenerate`, {}, { as: bob });
  assert.equal(refused.body.msg, 'Insufficient permission');
});
