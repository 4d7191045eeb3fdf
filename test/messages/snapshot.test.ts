import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { messageSnapshot, stopWordsSnapshot, unreadSnapshot } from '../../src/events/state/messages.ts';
import type { SnapshotContext } from '../../src/events/state/types.ts';
import { dm, send } from './helpers.ts';

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

test('edit history can be hidden by the realm', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const id = await send(s, 'general', 't', 'x');
  await s.ok('PATCH', `/api/v1/messages/${id}`, { content: 'y' });
  const db = s.server.app.db.kysely;
  await db.updateTable('realms').set({ settings: JSON.stringify({ allow_edit_history: false }) }).execute();
  const r = await s.api('GET', `/api/v1/messages/${id}/history`);
  assert.equal(r.status, 400);
  assert.equal(r.body.msg, 'Message edit history is disabled in this organization');
  const m = await s.ok('GET', `/api/v1/messages/${id}`);
  assert.equal(m.message.edit_history, undefined);
  assert.equal(typeof m.message.last_edit_timestamp, 'number');
});
