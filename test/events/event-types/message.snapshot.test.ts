import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../../helpers/server.ts';
import { sql } from 'kysely';
import { messageSnapshot, stopWordsSnapshot } from '../../../src/events/event-types/message.ts';
import { starredMessagesSnapshot, unreadSnapshot } from '../../../src/events/event-types/update_message_flags.ts';
import { recentPrivateConversationsGroup } from '../../../src/events/event-types/message.ts';
import type { SnapshotContext } from '../../../src/events/event-type.ts';
import { dm, send } from '../../helpers/factories.ts';
import { setRealmSettings } from '../../helpers/factories.ts';

test('snapshot groups: unread_msgs by stream topic, direct and group messages, mentions; starred; max_message_id; stop_words', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  const a = await send(s, 'general', 't', 'hi @**Alice**');
  const b = await dm(s, [alice.id], 'one');
  const c = await dm(s, [alice.id, bob.id], 'group');
  await s.ok('POST', '/api/v1/messages/flags', { messages: [b], op: 'add', flag: 'starred' }, alice);
  const app = s.server.app;
  const user = await app.db.kysely.selectFrom('users').selectAll().where('id', '=', alice.id).executeTakeFirstOrThrow();
  const realm = await app.db.kysely.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
  const ctx: SnapshotContext = { app, realm, user, clientCapabilities: {}, applyMarkdown: true, clientExternalAvatar: false, includeSubscribers: false, slimPresence: false };
  assert.deepEqual(await unreadSnapshot(ctx), {
    unread_msgs: {
      count: 3,
      pms: [{ other_user_id: s.owner.id, sender_id: s.owner.id, unread_message_ids: [b] }],
      streams: [{ topic: 't', stream_id: 1, unread_message_ids: [a] }],
      huddles: [{ user_ids_string: [s.owner.id, alice.id, bob.id].sort((x, y) => x - y).join(','), unread_message_ids: [c] }],
      mentions: [a],
      old_unreads_missing: false,
    },
    starred_messages: [b],
  });
  assert.deepEqual(await messageSnapshot(ctx), { max_message_id: c });
  const words = (await stopWordsSnapshot(ctx)).stop_words as string[];
  assert.equal(words.length, 149);
  assert.equal(words.includes('the'), true);
});

test('recent_private_conversations: the conversations naming the user (not one whose IDs merely contain theirs), latest first; starred_messages through its own index', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  // Enough users that one ID contains another's digits (1 and 11, 2 and 12, ...).
  const users = [];
  for (let i = 0; i < 12; i++) users.push(await s.createUser(`User ${i}`));
  const me = users[0]!;
  const lookalike = users.find((u) => u.id !== me.id && String(u.id).includes(String(me.id)))!;
  assert.ok(lookalike, 'a user whose ID contains mine');
  const other = users.find((u) => u !== me && u !== lookalike)!;
  const one = await dm(s, [me.id], 'one', other);
  await dm(s, [lookalike.id], 'not mine', other);
  const group = await dm(s, [me.id, lookalike.id], 'group', other);
  const self = await dm(s, [me.id], 'note to self', me);
  await send(s, 'general', 't', 'stream', other);
  const later = await dm(s, [me.id], 'again', other);
  await s.ok('POST', '/api/v1/messages/flags', { messages: [group, one], op: 'add', flag: 'starred' }, me);
  const app = s.server.app;
  const user = await app.db.kysely.selectFrom('users').selectAll().where('id', '=', me.id).executeTakeFirstOrThrow();
  const realm = await app.db.kysely.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
  const ctx: SnapshotContext = { app, realm, user, clientCapabilities: {}, applyMarkdown: true, clientExternalAvatar: false, includeSubscribers: false, slimPresence: false };
  assert.deepEqual(await recentPrivateConversationsGroup(ctx), {
    recent_private_conversations: [
      { user_ids: [other.id], max_message_id: later },
      { user_ids: [], max_message_id: self },
      { user_ids: [other.id, lookalike.id].sort((a, b) => a - b), max_message_id: group },
    ],
  });
  assert.ok(one < later);
  assert.deepEqual(await starredMessagesSnapshot(ctx), { starred_messages: [one, group] });
  if (app.db.dialect === 'sqlite') {
    const plan = await sql<{ detail: string }>`explain query plan select message_id from user_messages where user_id = ${me.id} and (flags & 2) <> 0 order by message_id`.execute(app.db.kysely);
    assert.match(plan.rows.map((r) => r.detail).join(' | '), /user_messages_starred/);
  }
});

test('edit history can be hidden by the realm', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const id = await send(s, 'general', 't', 'x');
  await s.ok('PATCH', `/api/v1/messages/${id}`, { content: 'y' });
  await setRealmSettings(s, { allow_edit_history: false });
  const r = await s.api('GET', `/api/v1/messages/${id}/history`);
  assert.equal(r.status, 400);
  assert.equal(r.body.msg, 'Message edit history is disabled in this organization');
  const m = await s.ok('GET', `/api/v1/messages/${id}`);
  assert.equal(m.message.edit_history, undefined);
  assert.equal(typeof m.message.last_edit_timestamp, 'number');
});
