// A new person's start (the reference's add_new_user_history): rows for the recent messages of the
// streams they join with, so their feed and unread counts are not empty until someone speaks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Account, type TestServer } from '../helpers/server.ts';
import { ageMessages, dm, makeBot, send, subscribe } from '../helpers/factories.ts';
import { LIMITS } from '../../src/lib/limits.ts';

/** Stream messages sent by `as` (the owner unless told), 50 at a time; their IDs, oldest first. */
async function sendMany(s: TestServer, to: string, count: number, as?: Account): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i += 50) {
    const batch = Array.from({ length: Math.min(50, count - i) }, (_, j) => send(s, to, 'chat', `message ${i + j}`, as));
    out.push(...(await Promise.all(batch)));
  }
  return out.sort((a, b) => a - b);
}

/** The feed (no narrow) of `as`, oldest first, with each message's flags. */
async function feed(s: TestServer, as: Account): Promise<{ id: number; flags: string[] }[]> {
  const r = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 5000, num_after: 0 }, as);
  return (r.messages as { id: number; flags: string[] }[]).map((m) => ({ id: m.id, flags: [...m.flags].sort() }));
}

async function unreadIds(s: TestServer, as: Account): Promise<{ count: number; ids: number[] }> {
  const { unread_msgs: u } = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['message', 'update_message_flags'] }, as);
  const ids = [...u.streams, ...u.pms, ...u.huddles].flatMap((x: { unread_message_ids: number[] }) => x.unread_message_ids);
  return { count: u.count as number, ids: ids.sort((a: number, b: number) => a - b) };
}

test('a member made by an administrator starts with the recent messages of their streams, only the newest 20 unread', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  // Messages older than 12 weeks are left out, however few the recent ones.
  await ageMessages(s, await sendMany(s, 'general', 3), 13 * 7 * 24 * 3600);
  const general = await sendMany(s, 'general', 25);
  // Nothing from a stream they are not in, a private stream, or others' direct messages.
  await subscribe(s, ['elsewhere']);
  await send(s, 'elsewhere', 'chat', 'not for newcomers');
  await subscribe(s, ['secret'], s.owner, { invite_only: true });
  await send(s, 'secret', 'chat', 'private');
  const old = await s.createUser('Old Timer');
  await dm(s, [old.id], 'just between us');

  const newbie = await s.createUser('Newbie');
  const expectedUnread = general.slice(-LIMITS.newUserHistoryUnread);
  assert.deepEqual(
    await feed(s, newbie),
    general.map((id) => ({ id, flags: expectedUnread.includes(id) ? ['historical'] : ['historical', 'read'] })),
  );
  assert.deepEqual(await unreadIds(s, newbie), { count: 20, ids: expectedUnread });
  // A message sent now arrives as usual.
  const next = await send(s, 'general', 'chat', 'welcome!');
  assert.deepEqual(await unreadIds(s, newbie), { count: 21, ids: [...expectedUnread, next] });
});

test('the newest 1000 of all their streams together', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await subscribe(s, ['announce']);
  const { stream_id: announce } = await s.ok('GET', '/api/v1/get_stream_id', { stream: 'announce' });
  await s.ok('POST', '/api/v1/default_streams', { stream_id: announce });
  // The busier stream first, then the quieter one: the newest 1000 span both.
  const busy = await sendMany(s, 'general', 900);
  const quiet = await sendMany(s, 'announce', 150);
  const newest = [...busy, ...quiet].slice(-LIMITS.newUserHistoryMessages);
  assert.equal(newest.length, 1000);
  assert.ok(newest.some((id) => busy.includes(id)) && newest.some((id) => quiet.includes(id)));

  const newbie = await s.createUser('Newbie');
  assert.deepEqual((await feed(s, newbie)).map((m) => m.id), newest);
  assert.deepEqual((await unreadIds(s, newbie)).ids, quiet.slice(-20));
});

test('bots start with nothing; a deactivated and reactivated person keeps the rows they had, once', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const first = await sendMany(s, 'general', 3);
  const bot = await makeBot(s, s.owner, 'Helper');
  assert.deepEqual(await feed(s, bot), []);

  const alice = await s.createUser('Alice');
  const later = await send(s, 'general', 'chat', 'after Alice joined');
  const before = await feed(s, alice);
  assert.deepEqual(before.map((m) => m.id), [...first, later]);
  await s.ok('DELETE', `/api/v1/users/${alice.id}`);
  await send(s, 'general', 'chat', 'while Alice was away');
  await s.ok('POST', `/api/v1/users/${alice.id}/reactivate`);
  assert.deepEqual(await feed(s, alice), before);
  const rows = await s.server.app.db.kysely.selectFrom('user_messages').select('message_id').where('user_id', '=', alice.id).execute();
  assert.equal(rows.length, 4);
});
