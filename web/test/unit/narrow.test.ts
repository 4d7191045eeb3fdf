import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  conversationOf,
  decodeHashComponent,
  describeNarrow,
  dmNarrow,
  emptyNarrowText,
  encodeHashComponent,
  hashToNarrow,
  makeLookups,
  matchesNarrow,
  narrowToHash,
  nearMessageId,
  parseSearch,
  senderNarrow,
  streamNarrow,
  toApiNarrow,
  unparseSearch,
} from '../../lib/narrow.ts';

const lookups = makeLookups(
  [
    { stream_id: 5, name: 'general' },
    { stream_id: 8, name: 'Rock & Roll (live)' },
    { stream_id: 12, name: 'design team' },
  ],
  [
    { user_id: 7, email: 'alice@x.com', full_name: 'Alice Smith' },
    { user_id: 9, email: 'bob@x.com', full_name: 'Bob' },
    { user_id: 11, email: 'me@x.com', full_name: 'Me Myself' },
  ],
  11,
);

test('parseSearch reads every operator of the search box, with stream names as IDs', () => {
  const text =
    'stream:general topic:lunch sender:alice@x.com has:link has:image has:attachment is:starred is:mentioned is:dm is:unread is:alerted is:resolved in:home in:all dm:alice@x.com,bob@x.com near:12 id:34';
  assert.deepEqual(parseSearch(text, lookups), [
    { operator: 'stream', operand: '5' },
    { operator: 'topic', operand: 'lunch' },
    { operator: 'sender', operand: 'alice@x.com' },
    { operator: 'has', operand: 'link' },
    { operator: 'has', operand: 'image' },
    { operator: 'has', operand: 'attachment' },
    { operator: 'is', operand: 'starred' },
    { operator: 'is', operand: 'mentioned' },
    { operator: 'is', operand: 'dm' },
    { operator: 'is', operand: 'unread' },
    { operator: 'is', operand: 'alerted' },
    { operator: 'is', operand: 'resolved' },
    { operator: 'in', operand: 'home' },
    { operator: 'in', operand: 'all' },
    { operator: 'dm', operand: 'alice@x.com,bob@x.com' },
    { operator: 'near', operand: '12' },
    { operator: 'id', operand: '34' },
  ]);
});

test('parseSearch: aliases, negation, quoted operands, keywords and phrases', () => {
  assert.deepEqual(parseSearch('channel:"design team" -topic:"lunch time" pizza "hot dogs" streams:public', lookups), [
    { operator: 'stream', operand: '12' },
    { operator: 'topic', operand: 'lunch time', negated: true },
    { operator: 'streams', operand: 'public' },
    { operator: 'search', operand: 'pizza "hot dogs"' },
  ]);
  assert.deepEqual(parseSearch('is:private pm-with:bob@x.com subject:x from:me', lookups), [
    { operator: 'is', operand: 'dm' },
    { operator: 'dm', operand: 'bob@x.com' },
    { operator: 'topic', operand: 'x' },
    { operator: 'sender', operand: 'me@x.com' },
  ]);
});

test('parseSearch keeps unknown operators and an unknown stream name as typed', () => {
  assert.deepEqual(parseSearch('foo:bar stream:nowhere 10:30', lookups), [
    { operator: 'stream', operand: 'nowhere' },
    { operator: 'search', operand: 'foo:bar 10:30' },
  ]);
  assert.deepEqual(parseSearch('   ', lookups), []);
});

test('parseSearch reads backslash escapes inside quotes and an empty topic', () => {
  assert.deepEqual(parseSearch('topic:"say \\"hi\\" \\\\ there" topic:""', lookups), [
    { operator: 'topic', operand: 'say "hi" \\ there' },
    { operator: 'topic', operand: '' },
  ]);
});

test('unparseSearch round-trips through parseSearch', () => {
  const texts = [
    'stream:general topic:"lunch time" -is:starred pizza',
    'stream:"Rock & Roll (live)" topic:"say \\"hi\\""',
    'dm:alice@x.com,bob@x.com has:link',
    'topic:"" near:5',
  ];
  for (const text of texts) {
    const terms = parseSearch(text, lookups);
    assert.equal(unparseSearch(terms, lookups), text);
    assert.deepEqual(parseSearch(unparseSearch(terms, lookups), lookups), terms);
  }
});

test('describeNarrow names the common views and falls back to the search text', () => {
  const d = (text: string) => describeNarrow(parseSearch(text, lookups), lookups);
  assert.equal(d(''), 'All messages');
  assert.equal(d('in:home'), 'All messages');
  assert.equal(d('stream:general'), '#general');
  assert.equal(d('stream:general topic:lunch'), '#general > lunch');
  assert.equal(d('stream:general topic:lunch near:99'), '#general > lunch');
  assert.equal(d('stream:general topic:""'), '#general > general chat');
  assert.equal(d('is:starred'), 'Starred messages');
  assert.equal(d('is:mentioned'), 'Mentions');
  assert.equal(d('is:dm'), 'Direct messages');
  assert.equal(d('dm:alice@x.com'), 'Direct messages with Alice Smith');
  assert.equal(d('dm:alice@x.com,bob@x.com'), 'Direct messages with Alice Smith and Bob');
  assert.equal(d('sender:bob@x.com'), 'Messages sent by Bob');
  assert.equal(d('has:image'), 'Messages with images');
  assert.equal(d('pizza'), 'Search results for pizza');
  assert.equal(d('stream:general pizza'), 'Search results for stream:general pizza');
  assert.equal(d('-is:starred'), 'Search results for -is:starred');
});

test('emptyNarrowText says a search found nothing, and how an empty view of yours fills', () => {
  const e = (text: string) => emptyNarrowText(parseSearch(text, lookups));
  assert.equal(e('pizza'), 'No messages match this search.');
  assert.equal(e('stream:general pizza'), 'No messages match this search.');
  assert.equal(e('has:image'), 'No messages match this search.');
  assert.equal(e('-is:starred'), 'No messages match this search.');
  assert.match(e('is:starred'), /^No starred messages\. Star a message from its actions menu/);
  assert.equal(e('is:mentioned'), 'Nobody has mentioned you yet.');
  assert.equal(e('stream:general'), 'No messages here yet.');
  assert.equal(e('stream:general topic:lunch near:99'), 'No messages here yet.');
  assert.equal(e('dm:alice@x.com'), 'No messages here yet.');
});

test('narrowToHash writes the reference forms', () => {
  assert.equal(narrowToHash(streamNarrow(5, 'lunch'), lookups), '#narrow/channel/5-general/topic/lunch');
  assert.equal(narrowToHash(streamNarrow(8), lookups), '#narrow/channel/8-Rock-.26-Roll-.28live.29');
  assert.equal(narrowToHash(streamNarrow(5, 'a.b (c) 100%/d'), lookups), '#narrow/channel/5-general/topic/a.2Eb.20.28c.29.20100.25.2Fd');
  assert.equal(narrowToHash(dmNarrow([9, 7, 11], lookups), lookups), '#narrow/dm/7,9-group');
  assert.equal(narrowToHash(dmNarrow([7], lookups), lookups), '#narrow/dm/7-Alice-Smith');
  assert.equal(narrowToHash(senderNarrow(7, lookups), lookups), '#narrow/sender/7-Alice-Smith');
  assert.equal(narrowToHash([{ operator: 'is', operand: 'starred' }], lookups), '#narrow/is/starred');
  assert.equal(narrowToHash([{ operator: 'is', operand: 'mentioned' }], lookups), '#narrow/is/mentioned');
  assert.equal(narrowToHash([{ operator: 'search', operand: 'word' }], lookups), '#narrow/search/word');
  assert.equal(narrowToHash([{ operator: 'near', operand: '123' }], lookups), '#narrow/near/123');
  assert.equal(narrowToHash([{ operator: 'is', operand: 'starred', negated: true }], lookups), '#narrow/-is/starred');
  assert.equal(narrowToHash([], lookups), '#feed');
});

test('hashToNarrow reads what narrowToHash writes, and the reference variants', () => {
  const narrows = [
    streamNarrow(5, 'lunch'),
    streamNarrow(8, 'a.b (c) 100%/d ünï'),
    streamNarrow(5, ''),
    dmNarrow([7, 9], lookups),
    dmNarrow([7], lookups),
    senderNarrow(9, lookups),
    parseSearch('-is:starred has:link "quoted words" near:4', lookups),
  ];
  for (const terms of narrows) assert.deepEqual(hashToNarrow(narrowToHash(terms, lookups), lookups), terms);
  assert.deepEqual(hashToNarrow('#narrow/dm/7,9,11-dm', lookups), [{ operator: 'dm', operand: 'alice@x.com,bob@x.com' }]);
  assert.deepEqual(hashToNarrow('#narrow/dm/11-dm', lookups), [{ operator: 'dm', operand: 'me@x.com' }]);
  assert.deepEqual(hashToNarrow('#narrow/pm-with/9-bob', lookups), [{ operator: 'dm', operand: 'bob@x.com' }]);
  assert.deepEqual(hashToNarrow('#narrow/stream/general', lookups), [{ operator: 'stream', operand: '5' }]);
  assert.deepEqual(hashToNarrow('#narrow/channel/99-gone', lookups), [{ operator: 'stream', operand: '99' }]);
  assert.deepEqual(hashToNarrow('#narrow/dm/7,404-group', lookups), [{ operator: 'dm', operand: '7,404' }]);
  assert.deepEqual(hashToNarrow('#narrow/is/starred/', lookups), [{ operator: 'is', operand: 'starred' }]);
  assert.deepEqual(hashToNarrow('#feed', lookups), []);
  assert.equal(hashToNarrow('#settings/profile', lookups), undefined);
  assert.equal(hashToNarrow('#narrow/is', lookups), undefined);
  assert.equal(hashToNarrow('#narrow/search/.E0.A4', lookups), undefined);
});

test('the hash escaping is the reference one', () => {
  assert.equal(encodeHashComponent('a.b(c)%d e'), 'a.2Eb.28c.29.25d.20e');
  assert.equal(decodeHashComponent('a.2Eb.28c.29.25d.20e'), 'a.b(c)%d e');
});

test('toApiNarrow sends IDs and leaves out client-only operators', () => {
  const terms = parseSearch('stream:general topic:lunch sender:alice@x.com dm:alice@x.com,bob@x.com -is:starred in:home near:5 id:6 word', lookups);
  assert.deepEqual(toApiNarrow(terms, lookups), [
    { operator: 'stream', operand: 5 },
    { operator: 'topic', operand: 'lunch' },
    { operator: 'sender', operand: 7 },
    { operator: 'dm', operand: [7, 9] },
    { operator: 'is', operand: 'starred', negated: true },
    { operator: 'id', operand: 6 },
    { operator: 'search', operand: 'word' },
  ]);
  assert.deepEqual(toApiNarrow(parseSearch('stream:nowhere sender:who@x.com', lookups), lookups), [
    { operator: 'stream', operand: 'nowhere' },
    { operator: 'sender', operand: 'who@x.com' },
  ]);
  assert.equal(nearMessageId(terms), 5);
  assert.equal(nearMessageId(streamNarrow(5)), undefined);
});

test('conversationOf finds the conversation to compose into', () => {
  assert.deepEqual(conversationOf(streamNarrow(5, 'lunch'), lookups), { type: 'stream', streamId: 5, topic: 'lunch' });
  assert.deepEqual(conversationOf(streamNarrow(5), lookups), { type: 'stream', streamId: 5 });
  assert.deepEqual(conversationOf(dmNarrow([9, 7], lookups), lookups), { type: 'private', userIds: [7, 9] });
  assert.equal(conversationOf(parseSearch('is:starred', lookups), lookups), undefined);
  assert.equal(conversationOf(parseSearch('-stream:general', lookups), lookups), undefined);
});

test('matchesNarrow decides locally where it can, and says undefined where only the server knows', () => {
  const inTopic = { id: 50, type: 'stream' as const, sender_id: 7, stream_id: 5, subject: 'Lunch', flags: ['read', 'starred'] };
  const dmWithBob = { id: 51, type: 'private' as const, sender_id: 9, display_recipient: [{ id: 9 }, { id: 11 }], flags: ['mentioned'] };
  const group = { id: 52, type: 'private' as const, sender_id: 7, display_recipient: [{ id: 7 }, { id: 9 }, { id: 11 }], flags: [] };
  const m = (msg: Parameters<typeof matchesNarrow>[0], text: string) => matchesNarrow(msg, parseSearch(text, lookups), lookups);
  assert.equal(m(inTopic, ''), true);
  assert.equal(m(inTopic, 'stream:general topic:lunch'), true);
  assert.equal(m(inTopic, 'stream:general topic:dinner'), false);
  assert.equal(m(inTopic, 'stream:"design team"'), false);
  assert.equal(m(inTopic, 'sender:alice@x.com is:starred -is:unread'), true);
  assert.equal(m(inTopic, '-is:starred'), false);
  assert.equal(m(inTopic, 'is:dm'), false);
  assert.equal(m(inTopic, 'stream:general pizza'), undefined);
  assert.equal(m(inTopic, 'stream:general topic:dinner pizza'), false);
  assert.equal(m(dmWithBob, 'dm:bob@x.com'), true);
  assert.equal(m(dmWithBob, 'is:dm is:mentioned is:unread'), true);
  assert.equal(m(dmWithBob, 'dm:alice@x.com,bob@x.com'), false);
  assert.equal(m(group, 'dm:alice@x.com,bob@x.com'), true);
  assert.equal(m(group, 'dm-including:bob@x.com'), true);
  assert.equal(m(group, 'has:link'), undefined);
  assert.equal(m({ ...inTopic, subject: '\u2714 Lunch' }, 'is:resolved'), true);
});

test('parseSearch takes a person by name for sender and dm: the full name, else a first name only one person has', () => {
  const withAlices = makeLookups(
    [],
    [
      { user_id: 7, email: 'alice@x.com', full_name: 'Alice Smith' },
      { user_id: 8, email: 'alicia@x.com', full_name: 'Alice Jones' },
      { user_id: 9, email: 'bob@x.com', full_name: 'Bob Stone' },
    ],
  );
  assert.deepEqual(parseSearch('sender:bob teal', withAlices), [
    { operator: 'sender', operand: 'bob@x.com' },
    { operator: 'search', operand: 'teal' },
  ]);
  assert.deepEqual(parseSearch('from:"alice jones"', withAlices), [{ operator: 'sender', operand: 'alicia@x.com' }]);
  assert.deepEqual(parseSearch('dm:Bob', withAlices), [{ operator: 'dm', operand: 'bob@x.com' }]);
  // Two Alices: the name is left as typed.
  assert.deepEqual(parseSearch('sender:alice', withAlices), [{ operator: 'sender', operand: 'alice' }]);
});
