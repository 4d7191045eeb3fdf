import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { ageMessages, dm, send, setRealmSettings, subscribe } from '../helpers/factories.ts';
import { ids } from '../helpers/messages.ts';

test('content edits: sender only, edit history, events, rendered mentions, time limit, realm switch', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const id = await send(s, 'general', 't', 'first');
  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/messages/${id}`, { content: 'second @**Alice**' });
  const ev = s.published.filter((p) => p.event.type === 'update_message');
  assert.equal(ev.length, 2);
  const forAlice = ev.find((p) => p.userIds.includes(alice.id))!;
  assert.deepEqual(forAlice.event.flags, ['mentioned']);
  assert.equal(forAlice.event.orig_content, 'first');
  assert.equal(forAlice.event.content, 'second @**Alice**');
  assert.deepEqual(forAlice.event.message_ids, [id]);
  assert.equal(forAlice.event.orig_rendered_content, '<p>first</p>');

  const got = await s.ok('GET', `/api/v1/messages/${id}`, {}, alice);
  assert.deepEqual(got.message.flags, ['mentioned']);
  assert.equal(typeof got.message.last_edit_timestamp, 'number');
  assert.deepEqual(
    got.message.edit_history.map((e: any) => [e.user_id, e.prev_content, e.prev_rendered_content]),
    [[s.owner.id, 'first', '<p>first</p>']],
  );
  const hist = await s.ok('GET', `/api/v1/messages/${id}/history`, {}, alice);
  assert.deepEqual(hist.message_history.map((h: any) => [h.content, h.prev_content]), [['first', undefined], ['second @**Alice**', 'first']]);

  const notSender = await s.api('PATCH', `/api/v1/messages/${id}`, { content: 'x' }, { as: alice });
  assert.equal(notSender.status, 400);
  assert.equal(notSender.body.msg, "You don't have permission to edit this message");

  await ageMessages(s, [id], 700);
  const late = await s.api('PATCH', `/api/v1/messages/${id}`, { content: 'x' });
  assert.equal(late.body.msg, 'The time limit for editing this message has passed');
  await setRealmSettings(s, { message_content_edit_limit_seconds: null });
  await s.ok('PATCH', `/api/v1/messages/${id}`, { content: 'third' });
  await setRealmSettings(s, { allow_message_editing: false });
  const off = await s.api('PATCH', `/api/v1/messages/${id}`, { content: 'x' });
  assert.equal(off.body.msg, 'Your organization has turned off message editing');

  const both = await s.api('PATCH', `/api/v1/messages/${id}`, { content: 'x', stream_id: 1 });
  assert.equal(both.status, 400);
  const nothing = await s.api('PATCH', `/api/v1/messages/${id}`, {});
  assert.equal(nothing.body.msg, 'Nothing to change');
  const d = await dm(s, [alice.id], 'hi');
  const dmTopic = await s.api('PATCH', `/api/v1/messages/${d}`, { topic: 'x' });
  assert.equal(dmTopic.status, 400);
  const badMode = await s.api('PATCH', `/api/v1/messages/${id}`, { content: 'y', propagate_mode: 'change_all' });
  assert.equal(badMode.body.msg, 'Invalid propagate_mode without topic edit');
});

test('topic edits: propagate modes, the subject alias, resolving without notices, edit_topic_policy', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const m = [await send(s, 'general', 'old', 'a'), await send(s, 'general', 'old', 'b', alice), await send(s, 'general', 'old', 'c'), await send(s, 'general', 'old', 'd')];
  await s.ok('PATCH', `/api/v1/messages/${m[1]}`, { topic: 'one', send_notification_to_new_thread: false });
  assert.deepEqual(await ids(s, { narrow: [['stream', 'general'], ['topic', 'one']] }), [m[1]]);
  await s.ok('PATCH', `/api/v1/messages/${m[2]}`, { subject: 'later', propagate_mode: 'change_later', send_notification_to_new_thread: false });
  assert.deepEqual(await ids(s, { narrow: [['stream', 'general'], ['topic', 'later']] }), [m[2], m[3]]);
  assert.deepEqual(await ids(s, { narrow: [['stream', 'general'], ['topic', 'old']] }), [m[0]]);

  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/messages/${m[2]}`, { topic: '\u2714 later', propagate_mode: 'change_all', send_notification_to_old_thread: true });
  assert.deepEqual(await ids(s, { narrow: [['is', 'resolved']] }), [m[2], m[3]]);
  assert.equal(s.published.filter((p) => p.event.type === 'message').length, 0, 'a pure resolve sends no notice');
  const ev = s.published.find((p) => p.event.type === 'update_message')!;
  assert.equal(ev.event.orig_subject, 'later');
  assert.equal(ev.event.subject, '\u2714 later');
  assert.equal(ev.event.propagate_mode, 'change_all');
  const moved = await s.ok('GET', `/api/v1/messages/${m[3]}`);
  assert.deepEqual(moved.message.edit_history.map((e: any) => [e.prev_topic, e.topic]), [['later', '\u2714 later'], ['old', 'later']]);

  // A real move posts notices as the notification bot, in both threads when asked.
  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/messages/${m[0]}`, { topic: 'fresh', propagate_mode: 'change_all', send_notification_to_old_thread: true });
  const notices = s.published.filter((p) => p.event.type === 'message').map((p) => [p.event.message.subject, p.event.message.sender_full_name, p.event.message.content]);
  assert.equal(notices.length >= 2, true);
  assert.equal(notices.some(([topic, who]) => topic === 'old' && who === 'Notification Bot'), true);
  assert.equal(notices.some(([topic, who]) => topic === 'fresh' && who === 'Notification Bot'), true);

  await setRealmSettings(s, { edit_topic_policy: 2 });
  const denied = await s.api('PATCH', `/api/v1/messages/${m[1]}`, { topic: 'nope' }, { as: alice });
  assert.equal(denied.body.msg, "You don't have permission to edit this message");
  const tooLong = await s.api('PATCH', `/api/v1/messages/${m[1]}`, { topic: 'x'.repeat(61) });
  assert.equal(tooLong.status, 400);
});

test('moves between streams: policy, time limits with MOVE_MESSAGES_TIME_LIMIT_EXCEEDED, access rows and delete events', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  await subscribe(s, ['private'], s.owner, { invite_only: true, principals: [s.owner.id, alice.id] });
  const target = (await s.server.app.db.kysely.selectFrom('streams').select('id').where('name', '=', 'private').executeTakeFirstOrThrow()).id;
  const m = [await send(s, 'general', 'topic', 'a'), await send(s, 'general', 'topic', 'b'), await send(s, 'general', 'topic', 'c')];
  await ageMessages(s, [m[0]!], 700000);

  const limited = await s.api('PATCH', `/api/v1/messages/${m[1]}`, { stream_id: target, propagate_mode: 'change_all' }, { as: alice });
  assert.equal(limited.status, 400);
  assert.equal(limited.body.code, 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED');
  assert.equal(limited.body.first_message_id_allowed_to_move, m[1]);
  assert.equal(limited.body.total_messages_in_topic, 3);
  assert.equal(limited.body.total_messages_allowed_to_move, 2);
  const oneOld = await s.api('PATCH', `/api/v1/messages/${m[0]}`, { stream_id: target }, { as: alice });
  assert.equal(oneOld.body.msg, "The time limit for editing this message's stream has passed");

  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/messages/${m[1]}`, { stream_id: target, propagate_mode: 'change_later', send_notification_to_new_thread: false }, alice);
  assert.deepEqual(await ids(s, { narrow: [['stream', 'private']] }, alice), [m[1], m[2]]);
  const del = s.published.find((p) => p.event.type === 'delete_message')!;
  assert.deepEqual(del.event.message_ids, [m[1], m[2]]);
  assert.equal(del.userIds.includes(bob.id), true);
  assert.deepEqual(await ids(s, { narrow: [] }, bob), [m[0]]);
  const upd = s.published.find((p) => p.event.type === 'update_message')!;
  assert.equal(upd.event.new_stream_id, target);

  await setRealmSettings(s, { move_messages_between_streams_policy: 2 });
  const denied = await s.api('PATCH', `/api/v1/messages/${m[0]}`, { stream_id: target }, { as: alice });
  assert.equal(denied.body.msg, "You don't have permission to move this message");
  const badStream = await s.api('PATCH', `/api/v1/messages/${m[0]}`, { stream_id: 9999 });
  assert.equal(badStream.body.msg, 'Invalid stream ID');
});
