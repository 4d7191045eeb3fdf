import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/server.ts';
import { verifyAction } from '../helpers/verify.ts';
import { dm, send, subscribe } from '../helpers/factories.ts';

async function fetchOne(s: TestServer, id: number, as?: Parameters<TestServer['ok']>[3]) {
  const r = await s.ok('GET', '/api/v1/messages', { anchor: id, num_before: 0, num_after: 0 }, as);
  return (r.messages as Record<string, any>[])[0]!;
}

const widget = (m: Record<string, any>) => JSON.parse(m.submessages[0].content) as Record<string, unknown>;

test('/poll and /todo messages start their widget: a first submessage with widget_type and extra_data, in fetches and message events', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  s.published.length = 0;
  const poll = await send(s, 'general', 'lunch', '/poll Where to eat?\n- Pizza\n* Sushi\n\n  Tacos  ');
  const event = s.published.find((p) => p.event.type === 'message')!.event;
  assert.equal(event.message.submessages.length, 1);
  const m = await fetchOne(s, poll);
  assert.deepEqual(m.submessages, event.message.submessages);
  assert.deepEqual(
    { ...m.submessages[0], content: undefined },
    { id: m.submessages[0].id, message_id: poll, sender_id: s.owner.id, msg_type: 'widget', content: undefined },
  );
  assert.deepEqual(widget(m), { widget_type: 'poll', extra_data: { question: 'Where to eat?', options: ['Pizza', 'Sushi', 'Tacos'] } });

  const todo = await send(s, 'general', 'chores', '/todo Before Friday\n- Book room: the big one\n- Order food');
  assert.deepEqual(widget(await fetchOne(s, todo)), {
    widget_type: 'todo',
    extra_data: { task_list_title: 'Before Friday', tasks: [{ task: 'Book room', desc: 'the big one' }, { task: 'Order food', desc: '' }] },
  });
  assert.deepEqual(widget(await fetchOne(s, await send(s, 'general', 'x', '/poll'))), { widget_type: 'poll', extra_data: { question: '', options: [] } });
  for (const plain of ['/pollster is a word', 'see /poll here', ' /todo indented']) {
    assert.deepEqual((await fetchOne(s, await send(s, 'general', 'x', plain))).submessages, [], plain);
  }
});

test('POST /submessage: a vote reaches everyone who can see the message, and fetches list submessages in order', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  const id = await send(s, 'general', 'lunch', '/poll Lunch?\nPizza\nSushi');
  const vote = JSON.stringify({ type: 'vote', key: 'canned,1', vote: 1 });
  s.published.length = 0;
  const events = await verifyAction(s, bob, () => s.ok('POST', '/api/v1/submessage', { message_id: id, msg_type: 'widget', content: vote }, alice));
  assert.equal(events.length, 1);
  const sub = (await fetchOne(s, id, bob)).submessages[1];
  assert.deepEqual(events[0], { id: events[0]!.id, type: 'submessage', msg_type: 'widget', message_id: id, submessage_id: sub.id, sender_id: alice.id, content: vote });
  assert.deepEqual(s.published.map((p) => [p.event.type, p.userIds.sort((a, b) => a - b)]), [['submessage', [s.owner.id, alice.id, bob.id].sort((a, b) => a - b)]]);
  assert.deepEqual(sub, { id: sub.id, message_id: id, sender_id: alice.id, msg_type: 'widget', content: vote });

  const option = JSON.stringify({ type: 'new_option', option: 'Tacos', idx: 1 });
  await s.ok('POST', '/api/v1/submessage', { message_id: id, msg_type: 'widget', content: option }, bob);
  const question = JSON.stringify({ type: 'question', question: 'Dinner?' });
  await s.ok('POST', '/api/v1/submessage', { message_id: id, msg_type: 'widget', content: question });
  const list = (await fetchOne(s, id, alice)).submessages as { content: string; sender_id: number }[];
  assert.deepEqual(list.slice(1).map((x) => [x.sender_id, x.content]), [[alice.id, vote], [bob.id, option], [s.owner.id, question]]);
});

test('POST /submessage: todo tasks and strikes; only the author edits a question or a title', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const id = await send(s, 'general', 'chores', '/todo Chores\nDishes');
  const post = (content: unknown, as = alice) => s.api('POST', '/api/v1/submessage', { message_id: id, msg_type: 'widget', content: JSON.stringify(content) }, { as });
  assert.equal((await post({ type: 'new_task', key: 0, task: 'Laundry', desc: '', completed: false })).status, 200);
  assert.equal((await post({ type: 'strike', key: '0,canned' })).status, 200);
  const title = await post({ type: 'new_task_list_title', title: 'Mine now' });
  assert.deepEqual([title.status, title.body.code, title.body.msg], [400, 'BAD_REQUEST', "You can't edit the task list title unless you are the author."]);
  assert.equal((await post({ type: 'new_task_list_title', title: 'Weekend' }, s.owner)).status, 200);

  const pollId = await send(s, 'general', 'p', '/poll Q');
  const q = await s.api('POST', '/api/v1/submessage', { message_id: pollId, msg_type: 'widget', content: JSON.stringify({ type: 'question', question: 'Mine' }) }, { as: alice });
  assert.deepEqual([q.status, q.body.msg], [400, "You can't edit a question unless you are the author."]);
});

test('POST /submessage: invalid input gets a clear 400 and writes nothing', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const id = await send(s, 'general', 'lunch', '/poll Lunch?\nPizza');
  const cases: [Record<string, unknown>, string][] = [
    [{ msg_type: 'widget', content: '{"type":"vote"' }, 'Invalid json for submessage'],
    [{ msg_type: 'widget', content: '"vote"' }, 'poll data is not a dict'],
    [{ msg_type: 'widget', content: '{}' }, "poll data is missing 'type'"],
    [{ msg_type: 'widget', content: '{"type":"close"}' }, 'Unknown type for poll data: close'],
    [{ msg_type: 'widget', content: '{"type":"vote","key":"canned,0"}' }, "poll data is missing 'vote'"],
    [{ msg_type: 'widget', content: '{"type":"vote","key":"canned,0","vote":2}' }, "poll data: 'vote' must be 1 or -1"],
    [{ msg_type: 'widget', content: '{"type":"vote","key":7,"vote":1}' }, "poll data: 'key' must be a string"],
    [{ msg_type: 'widget', content: '{"type":"vote","key":"canned,0","vote":1,"x":1}' }, "poll data has an unexpected key 'x'"],
    [{ msg_type: 'widget', content: '{"type":"new_option","option":"a","idx":1001}' }, "poll data: 'idx' must be an integer from 0 to 1000"],
    [{ msg_type: 'widget', content: JSON.stringify({ type: 'new_option', option: 'a'.repeat(10_000), idx: 1 }) }, 'Submessage too long (limit: 10000 characters)'],
    [{ msg_type: '', content: '{}' }, 'msg_type must not be empty'],
    [{ msg_type: 'w'.repeat(101), content: '{}' }, 'msg_type is too long (limit: 100 characters)'],
    [{ message_id: 999999, msg_type: 'widget', content: '{}' }, 'Invalid message(s)'],
    [{ message_id: 'seven', msg_type: 'widget', content: '{}' }, 'message_id is not an integer'],
  ];
  for (const [params, msg] of cases) {
    const r = await s.api('POST', '/api/v1/submessage', { message_id: id, ...params }, { as: alice });
    assert.deepEqual([r.status, r.body.code, r.body.msg], [400, 'BAD_REQUEST', msg], JSON.stringify(params));
  }
  const missing = await s.api('POST', '/api/v1/submessage', { message_id: id, msg_type: 'widget' }, { as: alice });
  assert.deepEqual([missing.status, missing.body.code], [400, 'REQUEST_VARIABLE_MISSING']);
  assert.equal((await fetchOne(s, id)).submessages.length, 1);
});

test('POST /submessage: only who can see the message, and the sender first on a message without a widget', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  await subscribe(s, ['secret'], s.owner, { invite_only: true });
  const hidden = await send(s, 'secret', 't', '/poll Q\nA');
  const direct = await dm(s, [alice.id], '/todo Ours\nThing');
  const vote = JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 });
  for (const messageId of [hidden, direct]) {
    const r = await s.api('POST', '/api/v1/submessage', { message_id: messageId, msg_type: 'widget', content: vote }, { as: bob });
    assert.deepEqual([r.status, r.body.msg], [400, 'Invalid message(s)']);
  }
  s.published.length = 0;
  await s.ok('POST', '/api/v1/submessage', { message_id: direct, msg_type: 'widget', content: JSON.stringify({ type: 'strike', key: '0,canned' }) }, alice);
  assert.deepEqual(s.published.map((p) => p.userIds.sort((a, b) => a - b)), [[s.owner.id, alice.id].sort((a, b) => a - b)]);

  // A plain message takes any JSON, but its sender attaches the first submessage.
  const plain = await send(s, 'general', 't', 'hello', alice);
  const first = await s.api('POST', '/api/v1/submessage', { message_id: plain, msg_type: 'widget', content: '{"a":1}' }, { as: bob });
  assert.deepEqual([first.status, first.body.msg], [400, 'You cannot attach a submessage to this message.']);
  await s.ok('POST', '/api/v1/submessage', { message_id: plain, msg_type: 'widget', content: '{"a":1}' }, alice);
  await s.ok('POST', '/api/v1/submessage', { message_id: plain, msg_type: 'widget', content: '[2]' }, bob);
  assert.equal((await fetchOne(s, plain)).submessages.length, 2);
});

test('widget messages: their text cannot be edited, their topic can; deleting the message removes its submessages', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const id = await send(s, 'general', 'lunch', '/poll Lunch?\nPizza');
  const edit = await s.api('PATCH', `/api/v1/messages/${id}`, { content: '/poll Dinner?' });
  assert.deepEqual([edit.status, edit.body.msg], [400, 'Widgets cannot be edited.']);
  await s.ok('PATCH', `/api/v1/messages/${id}`, { topic: 'food' });
  assert.equal((await fetchOne(s, id)).subject, 'food');
  await s.ok('DELETE', `/api/v1/messages/${id}`);
  const db = s.server.app.db.kysely;
  assert.deepEqual(await db.selectFrom('submessages').selectAll().where('message_id', '=', id).execute(), []);
});
