import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type TestServer } from '../helpers/server.ts';
import { scheduledMessagesSnapshot } from '../../src/events/event-types/scheduled_messages.ts';
import { deliverDueScheduledMessages } from '../../src/actions/scheduled-delivery.ts';
import { snapshotContext, streamIdOf, waitFor } from '../helpers/snapshot.ts';
import { setStreamDeactivated, setTime } from '../helpers/factories.ts';

const now = (): number => Math.floor(Date.now() / 1000);

async function latestMessage(s: TestServer, as: TestServer['owner'], content: string): Promise<Record<string, any> | undefined> {
  const res = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 20, num_after: 0 }, as);
  return (res.messages as Record<string, any>[]).find((m) => m.content === `<p>${content}</p>`);
}

test('scheduled messages: create, list, edit and delete, with their events', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const general = await streamIdOf(s, 'general');
  const at = now() + 3600;
  s.published.length = 0;
  const { scheduled_message_id: id1 } = await s.ok('POST', '/api/v1/scheduled_messages', {
    type: 'stream', to: general, topic: 'later', content: 'Hello **all**', scheduled_delivery_timestamp: at,
  });
  const { scheduled_message_id: id2 } = await s.ok('POST', '/api/v1/scheduled_messages', {
    type: 'direct', to: [alice.id], content: 'psst', scheduled_delivery_timestamp: at - 60,
  });
  const streamJson = { scheduled_message_id: id1, type: 'stream', to: general, topic: 'later', content: 'Hello **all**', rendered_content: s.published[0]!.event.scheduled_messages[0].rendered_content, scheduled_delivery_timestamp: at, failed: false };
  assert.deepEqual(s.published.map((p) => [p.event, p.userIds]), [
    [{ type: 'scheduled_messages', op: 'add', scheduled_messages: [streamJson] }, [s.owner.id]],
    [{ type: 'scheduled_messages', op: 'add', scheduled_messages: [{ scheduled_message_id: id2, type: 'private', to: [alice.id], content: 'psst', rendered_content: '<p>psst</p>', scheduled_delivery_timestamp: at - 60, failed: false }] }, [s.owner.id]],
  ]);
  const list = await s.ok('GET', '/api/v1/scheduled_messages');
  assert.deepEqual(list.scheduled_messages.map((m: any) => m.scheduled_message_id), [id2, id1]);
  assert.deepEqual(list.scheduled_messages[1], streamJson);
  assert.deepEqual((await scheduledMessagesSnapshot(await snapshotContext(s, s.owner.id))).scheduled_messages, list.scheduled_messages);
  assert.deepEqual((await s.ok('GET', '/api/v1/scheduled_messages', {}, alice)).scheduled_messages, []);

  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/scheduled_messages/${id2}`, { content: 'psst, edited', scheduled_delivery_timestamp: at + 60 });
  assert.equal(s.published.length, 1);
  assert.deepEqual(s.published[0]!.event, {
    type: 'scheduled_messages',
    op: 'update',
    scheduled_message: { scheduled_message_id: id2, type: 'private', to: [alice.id], content: 'psst, edited', rendered_content: '<p>psst, edited</p>', scheduled_delivery_timestamp: at + 60, failed: false },
  });
  // Changing the type needs the new addressee, and a topic for a stream.
  const noTo = await s.api('PATCH', `/api/v1/scheduled_messages/${id2}`, { type: 'stream' });
  assert.deepEqual([noTo.status, noTo.body.msg], [400, 'Recipient required when updating type of scheduled message.']);
  const noTopic = await s.api('PATCH', `/api/v1/scheduled_messages/${id2}`, { type: 'stream', to: general });
  assert.deepEqual([noTopic.status, noTopic.body.msg], [400, 'Topic required when updating scheduled message type to stream.']);
  await s.ok('PATCH', `/api/v1/scheduled_messages/${id2}`, { type: 'stream', to: general, topic: 'moved' });
  const moved = (await s.ok('GET', '/api/v1/scheduled_messages')).scheduled_messages.find((m: any) => m.scheduled_message_id === id2);
  assert.deepEqual([moved.type, moved.to, moved.topic], ['stream', general, 'moved']);

  s.published.length = 0;
  await s.ok('DELETE', `/api/v1/scheduled_messages/${id1}`);
  assert.deepEqual(s.published.map((p) => [p.event, p.userIds]), [[{ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id1 }, [s.owner.id]]]);
  for (const [method, params] of [['DELETE', {}], ['PATCH', { content: 'x' }]] as const) {
    const gone = await s.api(method, `/api/v1/scheduled_messages/${id1}`, params);
    assert.equal(gone.status, 404);
    assert.deepEqual([gone.body.code, gone.body.msg], ['BAD_REQUEST', 'Scheduled message does not exist']);
  }
  const notHers = await s.api('DELETE', `/api/v1/scheduled_messages/${id2}`, {}, { as: alice });
  assert.deepEqual([notHers.status, notHers.body.code], [404, 'BAD_REQUEST']);
});

test('scheduled messages: creation errors', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const general = await streamIdOf(s, 'general');
  const at = now() + 3600;
  const cases: [Record<string, unknown>, number, string, string][] = [
    [{ type: 'stream', to: 9999, topic: 't', content: 'x', scheduled_delivery_timestamp: at }, 400, 'STREAM_DOES_NOT_EXIST', "Stream with ID '9999' does not exist"],
    [{ type: 'direct', to: [9999], content: 'x', scheduled_delivery_timestamp: at }, 400, 'BAD_REQUEST', 'Invalid user ID 9999'],
    [{ type: 'stream', to: general, topic: 't', content: 'x', scheduled_delivery_timestamp: now() - 10 }, 400, 'BAD_REQUEST', 'Scheduled delivery time must be in the future.'],
    [{ type: 'stream', to: general, topic: 't', content: '   ', scheduled_delivery_timestamp: at }, 400, 'BAD_REQUEST', 'Message must not be empty'],
    [{ type: 'stream', to: general, topic: 't'.repeat(61), content: 'x', scheduled_delivery_timestamp: at }, 400, 'BAD_REQUEST', 'Topic too long (limit: 60 characters)'],
    [{ type: 'direct', to: [], content: 'x', scheduled_delivery_timestamp: at }, 400, 'BAD_REQUEST', 'Message must have recipients'],
    [{ type: 'stream', to: general, topic: 't', content: 'x' }, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'scheduled_delivery_timestamp' argument"],
  ];
  for (const [params, status, code, msg] of cases) {
    const res = await s.api('POST', '/api/v1/scheduled_messages', params);
    assert.deepEqual([res.status, res.body.code, res.body.msg], [status, code, msg]);
  }
  const stream = await s.api('POST', '/api/v1/scheduled_messages', cases[0]![0]);
  assert.equal(stream.body.stream_id, 9999);
  assert.deepEqual((await s.ok('GET', '/api/v1/scheduled_messages')).scheduled_messages, []);
});

test('a message scheduled two seconds ahead is delivered to its recipient once', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const { scheduled_message_id: id } = await s.ok('POST', '/api/v1/scheduled_messages', {
    type: 'direct', to: [alice.id], content: 'on time', scheduled_delivery_timestamp: now() + 2,
  });
  const delivered = await waitFor(() => s.published.find((p) => p.event.type === 'message' && p.event.message.content === '<p>on time</p>' && p.userIds.includes(alice.id)));
  assert.equal(delivered.event.message.sender_id, s.owner.id);
  assert.deepEqual(delivered.event.flags, []);
  await waitFor(() => s.published.find((p) => p.event.type === 'scheduled_messages' && p.event.op === 'remove' && p.event.scheduled_message_id === id));
  const got = await latestMessage(s, alice, 'on time');
  assert.equal(got?.sender_id, s.owner.id);
  assert.deepEqual((await s.ok('GET', '/api/v1/scheduled_messages')).scheduled_messages, []);
  // Further passes (this process's or another's) find nothing left to send.
  assert.equal(await deliverDueScheduledMessages(s.server.app), 0);
  const sent = s.published.filter((p) => p.event.type === 'message' && p.event.message.content === '<p>on time</p>');
  assert.equal(new Set(sent.map((p) => p.event.message.id)).size, 1);
  assert.deepEqual(sent.flatMap((p) => p.userIds).sort(), [s.owner.id, alice.id].sort());
});

test('a message that came due while the server was stopped is delivered when it starts again', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-test-'));
  t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const s1 = await startServer({ dataDir });
  const alice = await s1.createUser('Alice');
  const due = now() + 2;
  await s1.ok('POST', '/api/v1/scheduled_messages', { type: 'stream', to: await streamIdOf(s1, 'general'), topic: 'restart', content: 'while away', scheduled_delivery_timestamp: due });
  await s1.close({ keepData: true });
  // Wait (without any server) until the message is due.
  await waitFor(() => (now() > due ? true : undefined));
  const s2 = await startServer({ dataDir, databaseUrl: s1.databaseUrl });
  t.after(() => s2.close());
  assert.equal(s2.owner.id, s1.owner.id);
  const got = await waitFor(() => latestMessage(s2, alice, 'while away'));
  assert.equal(got.subject, 'restart');
  assert.equal(got.sender_id, s2.owner.id);
  assert.deepEqual((await s2.ok('GET', '/api/v1/scheduled_messages')).scheduled_messages, []);
});

test('a scheduled message that cannot be sent is marked failed, and rescheduling retries it', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const general = await streamIdOf(s, 'general');
  const { scheduled_message_id: id } = await s.ok('POST', '/api/v1/scheduled_messages', {
    type: 'stream', to: general, topic: 'x', content: 'doomed', scheduled_delivery_timestamp: now() + 3600,
  });
  // The stream is archived, then the message comes due.
  await setStreamDeactivated(s, general, true);
  await setTime(s, 'scheduled_messages', 'scheduled_timestamp', now() - 1, { id });
  const failed = await waitFor(() => s.published.find((p) => p.event.type === 'scheduled_messages' && p.event.op === 'update' && p.event.scheduled_message.failed));
  assert.deepEqual(failed.userIds, [s.owner.id]);
  assert.equal(failed.event.scheduled_message.scheduled_message_id, id);
  const row = await s.server.app.db.kysely.selectFrom('scheduled_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  assert.deepEqual([row.failed, row.delivered, row.failure_message], [1, 0, 'The stream no longer exists.']);
  assert.equal((await s.ok('GET', '/api/v1/scheduled_messages')).scheduled_messages[0].failed, true);
  // Editing a failed message needs a new time.
  const noTime = await s.api('PATCH', `/api/v1/scheduled_messages/${id}`, { content: 'again' });
  assert.deepEqual([noTime.status, noTime.body.msg], [400, 'Scheduled delivery time must be in the future.']);
  await setStreamDeactivated(s, general, false);
  await s.ok('PATCH', `/api/v1/scheduled_messages/${id}`, { scheduled_delivery_timestamp: now() + 1 });
  assert.equal((await s.ok('GET', '/api/v1/scheduled_messages')).scheduled_messages[0].failed, false);
  await waitFor(() => latestMessage(s, s.owner, 'doomed'));
});

test('only one of several delivering processes claims a due message', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const db = s.server.app.db.kysely;
  const { claimScheduledMessage } = await import('../../src/db/queries/scheduled-messages.ts');
  const { scheduled_message_id: id } = await s.ok('POST', '/api/v1/scheduled_messages', {
    type: 'stream', to: await streamIdOf(s, 'general'), topic: 'x', content: 'claimed', scheduled_delivery_timestamp: now() + 3600,
  });
  const t0 = now() + 3600;
  const results = await Promise.all(['a', 'b', 'c'].map((token) => claimScheduledMessage(db, id, token, t0, t0 + 60)));
  assert.deepEqual(results.filter(Boolean).length, 1);
  // An expired claim (its process died) can be taken over.
  assert.equal(await claimScheduledMessage(db, id, 'd', t0 + 30, t0 + 90), false);
  assert.equal(await claimScheduledMessage(db, id, 'd', t0 + 61, t0 + 121), true);
});

test('delivery passes racing each other send a due message exactly once', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { scheduled_message_id: id } = await s.ok('POST', '/api/v1/scheduled_messages', {
    type: 'stream', to: await streamIdOf(s, 'general'), topic: 'race', content: 'only once', scheduled_delivery_timestamp: now() + 3600,
  });
  await setTime(s, 'scheduled_messages', 'scheduled_timestamp', now() - 1, { id });
  // Three extra passes race the server's own scheduler.
  const counts = await Promise.all([1, 2, 3].map(() => deliverDueScheduledMessages(s.server.app)));
  await waitFor(() => s.published.find((p) => p.event.type === 'scheduled_messages' && p.event.op === 'remove'));
  assert.ok(counts.reduce((a, b) => a + b, 0) <= 1);
  const rows = await s.server.app.db.kysely.selectFrom('messages').select('id').where('content', '=', 'only once').execute();
  assert.equal(rows.length, 1);
  const row = await s.server.app.db.kysely.selectFrom('scheduled_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  assert.deepEqual([row.delivered, row.delivered_message_id, row.claim_token], [1, rows[0]!.id, null]);
});
