// Polls and todo lists: the state folded from a message's submessages, and the store taking
// submessage events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextIndex, pollOption, pollQuestion, pollVote, todoStrike, todoTask, todoTitle, widgetState, type Submessage } from '../../lib/widgets.ts';
import { MessageStore } from '../../store/messages.ts';
import type { Message } from '../../store/types.ts';

const AUTHOR = 1;
const ALICE = 2;
const BOB = 3;

function subs(first: Record<string, unknown>, ...rest: [number, Record<string, unknown> | string][]): Submessage[] {
  return [
    { id: 1, sender_id: AUTHOR, msg_type: 'widget', content: JSON.stringify(first) },
    ...rest.map(([sender, data], i) => ({ id: i + 2, sender_id: sender, msg_type: 'widget', content: typeof data === 'string' ? data : JSON.stringify(data) })),
  ];
}

const poll = (...rest: [number, Record<string, unknown> | string][]) => subs({ widget_type: 'poll', extra_data: { question: 'Lunch?', options: ['Pizza', 'Sushi'] } }, ...rest);
const todo = (...rest: [number, Record<string, unknown> | string][]) =>
  subs({ widget_type: 'todo', extra_data: { task_list_title: 'Chores', tasks: [{ task: 'Dishes', desc: 'after lunch' }] } }, ...rest);

test('a poll starts with its question and options, keyed canned,<index>, without votes', () => {
  assert.deepEqual(widgetState(poll()), {
    kind: 'poll',
    authorId: AUTHOR,
    question: 'Lunch?',
    options: [
      { key: 'canned,0', text: 'Pizza', voters: [] },
      { key: 'canned,1', text: 'Sushi', voters: [] },
    ],
  });
});

test('poll votes toggle per person; a repeated vote counts once; a vote for an unknown option is ignored', () => {
  const s = widgetState(poll([ALICE, pollVote('canned,0', true)], [BOB, pollVote('canned,0', true)], [ALICE, pollVote('canned,0', true)], [BOB, pollVote('canned,9', true)]));
  assert.equal(s?.kind, 'poll');
  assert.deepEqual(s.kind === 'poll' && s.options.map((o) => o.voters), [[ALICE, BOB], []]);
  const after = widgetState(poll([ALICE, pollVote('canned,0', true)], [ALICE, pollVote('canned,0', false)], [ALICE, pollVote('canned,1', true)]));
  assert.deepEqual(after?.kind === 'poll' && after.options.map((o) => o.voters), [[], [ALICE]]);
});

test('poll options added by people are keyed by sender and index; only the author changes the question', () => {
  const s = widgetState(
    poll([ALICE, pollOption('Tacos', 0)], [ALICE, pollOption('Again', 0)], [BOB, pollOption('Curry', 0)], [BOB, pollVote('2,0', true)], [ALICE, pollQuestion('Mine?')], [AUTHOR, pollQuestion('Dinner?')]),
  );
  assert.ok(s?.kind === 'poll');
  assert.equal(s.question, 'Dinner?');
  assert.deepEqual(s.options.map((o) => [o.key, o.text, o.voters]), [
    ['canned,0', 'Pizza', []],
    ['canned,1', 'Sushi', []],
    ['2,0', 'Tacos', [BOB]],
    ['3,0', 'Curry', []],
  ]);
});

test('a todo list starts with its title and tasks; strikes toggle; tasks are keyed by index and sender; duplicates are ignored', () => {
  const s = widgetState(
    todo([ALICE, todoTask('Laundry', 'whites', 0)], [BOB, todoTask('Laundry', '', 0)], [BOB, todoStrike('0,canned')], [ALICE, todoStrike('0,2')], [ALICE, todoStrike('0,2')], [BOB, todoTitle('Ours')]),
  );
  assert.deepEqual(s, {
    kind: 'todo',
    authorId: AUTHOR,
    title: 'Chores',
    tasks: [
      { key: '0,canned', task: 'Dishes', desc: 'after lunch', completed: true },
      { key: '0,2', task: 'Laundry', desc: 'whites', completed: false },
    ],
  });
  const retitled = widgetState(todo([AUTHOR, todoTitle('Weekend')]));
  assert.equal(retitled?.kind === 'todo' && retitled.title, 'Weekend');
});

test('malformed submessages and messages without a widget change nothing', () => {
  assert.equal(widgetState(undefined), null);
  assert.equal(widgetState([]), null);
  assert.equal(widgetState(subs({ widget_type: 'zork' })), null);
  assert.deepEqual(widgetState(poll([ALICE, '{not json'], [ALICE, '[1]'], [ALICE, { type: 'explode' }])), widgetState(poll()));
});

test('the next index of a person is past every option or task they added', () => {
  const list = poll([ALICE, pollOption('a', 0)], [ALICE, pollOption('b', 4)], [BOB, pollOption('c', 9)]);
  assert.equal(nextIndex(list, ALICE), 5);
  assert.equal(nextIndex(list, BOB), 10);
  assert.equal(nextIndex(list, AUTHOR), 0);
});

test('the store appends a submessage event to its message once, as a new message object', () => {
  const store = new MessageStore(() => ALICE);
  const m = { id: 7, sender_id: AUTHOR, reactions: [], flags: [], submessages: poll() } as unknown as Message;
  store.put([m]);
  const sm = { id: 20, sender_id: ALICE, msg_type: 'widget', content: JSON.stringify(pollVote('canned,1', true)) };
  store.applySubmessage(7, sm);
  store.applySubmessage(7, sm);
  const after = store.byId.get(7)!;
  assert.notEqual(after, m);
  assert.equal(after.submessages!.length, 2);
  const state = widgetState(after.submessages);
  assert.deepEqual(state?.kind === 'poll' && state.options[1]!.voters, [ALICE]);
  store.applySubmessage(99, sm); // a message not loaded: nothing to do
});
