// private_message_policy 2 (direct messages disabled): people may write to one bot alone, bots
// may write to anyone, everything else is refused with the reference's message; policy 1 allows all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { dm } from '../helpers/factories.ts';

test('direct messages disabled: refused between people, allowed to one bot and from bots', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  const bot = (await s.ok('POST', '/api/v1/bots', { full_name: 'Helper', short_name: 'helper', bot_type: 1 }, alice)) as { user_id: number; api_key: string };
  await s.ok('PATCH', '/api/v1/realm', { private_message_policy: 2 });

  for (const to of [[bob.id], [alice.id], [bob.id, bot.user_id]]) {
    const r = await s.api('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify(to), content: 'hi' }, { as: alice });
    assert.equal(r.status, 400, `to ${to}`);
    assert.equal(r.body.msg, 'Direct messages are disabled in this organization.');
  }
  await dm(s, [bot.user_id], 'to the bot', alice);
  const botAccount = { id: bot.user_id, email: (await s.ok('GET', `/api/v1/users/${bot.user_id}`)).user.email as string, apiKey: bot.api_key };
  const fromBot = await s.api('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify([alice.id, bob.id]), content: 'from the bot' }, { as: botAccount });
  assert.equal(fromBot.status, 200);

  await s.ok('PATCH', '/api/v1/realm', { private_message_policy: 1 });
  await dm(s, [bob.id], 'allowed again', alice);
});
