import assert from 'node:assert/strict';
import { test } from 'node:test';
import { activeToken, applySuggestion, matchRank, matchStreams, matchTopics, matchUsers, searchSuggestions, suggest, type SearchData, type TypeaheadData } from '../../lib/typeahead.ts';
import { makeLookups } from '../../lib/narrow.ts';

const users = [
  { user_id: 1, full_name: 'Zoe Alvarez', email: 'zoe@x.com' },
  { user_id: 2, full_name: 'Alice Smith', email: 'alice@x.com' },
  { user_id: 3, full_name: 'Bob Alison', email: 'bob@x.com' },
  { user_id: 4, full_name: 'Malik Ali', email: 'malik@x.com' },
  { user_id: 5, full_name: 'Alina Gone', email: 'alina@x.com', is_active: false },
  { user_id: 6, full_name: 'Élodie Durand', email: 'elodie@x.com' },
];
const data: TypeaheadData = {
  users,
  groups: [{ id: 10, name: 'alignment' }, { id: 11, name: 'backend' }],
  streams: [
    { stream_id: 20, name: 'general' },
    { stream_id: 21, name: 'design team' },
    { stream_id: 22, name: 'engineering' },
  ],
  topics: new Map([[20, ['lunch plans', 'deploys', 'Launch party']]]),
  emoji: ['+1', 'tada', 'smile', 'heart', 'smiley', 'sweat_smile', 'thumbs_down'],
  wildcards: ['all', 'everyone', 'channel', 'topic'],
};

const tokenAt = (text: string) => activeToken(text, text.length);

test('activeToken finds the token kind, its query and where it starts', () => {
  assert.deepEqual(tokenAt('hi @ali'), { kind: 'mention', query: 'ali', start: 3, end: 7 });
  assert.deepEqual(tokenAt('@**Alice Sm'), { kind: 'mention', query: 'Alice Sm', start: 0, end: 11 });
  assert.deepEqual(tokenAt('(@_bob'), { kind: 'silent_mention', query: 'bob', start: 1, end: 6 });
  assert.deepEqual(tokenAt('x @_**bo'), { kind: 'silent_mention', query: 'bo', start: 2, end: 8 });
  assert.deepEqual(tokenAt('@*back'), { kind: 'mention', query: 'back', start: 0, end: 6 });
  assert.deepEqual(tokenAt('see #des'), { kind: 'stream', query: 'des', start: 4, end: 8 });
  assert.deepEqual(tokenAt('#**design te'), { kind: 'stream', query: 'design te', start: 0, end: 12 });
  assert.deepEqual(tokenAt('go #**general>lun'), { kind: 'topic', stream: 'general', query: 'lun', start: 3, end: 17 });
  assert.deepEqual(tokenAt('#**general**>'), { kind: 'topic', stream: 'general', query: '', start: 0, end: 13 });
  assert.deepEqual(tokenAt('nice :sm'), { kind: 'emoji', query: 'sm', start: 5, end: 8 });
  assert.deepEqual(tokenAt('hi @alice '), { kind: 'mention', query: 'alice ', start: 3, end: 10 });
  assert.deepEqual(tokenAt('@'), { kind: 'mention', query: '', start: 0, end: 1 });
});

test('activeToken stays quiet where a trigger is not meant', () => {
  for (const text of ['bob@x.com', 'at 10:30', 'nice :s', '# heading', 'C#', '@alice smith and bob', '`@ali', '```\n@ali', '@**Alice Smith|2** ok']) {
    assert.equal(tokenAt(text), undefined, text);
  }
  assert.deepEqual(tokenAt('```\ncode\n```\n@ali'), { kind: 'mention', query: 'ali', start: 13, end: 17 });
  // The cursor, not the end of the text, decides.
  assert.deepEqual(activeToken('@al and more', 3), { kind: 'mention', query: 'al', start: 0, end: 3 });
});

test('matchRank: a prefix of the whole or a word first, then a substring', () => {
  assert.equal(matchRank('ali', 'Alice Smith'), 0);
  assert.equal(matchRank('smi', 'Alice Smith'), 0);
  assert.equal(matchRank('ali smi', 'Alice Smith'), 0);
  assert.equal(matchRank('lic', 'Alice Smith'), 1);
  assert.equal(matchRank('elo', 'Élodie Durand'), 0);
  assert.equal(matchRank('thumbs', 'sweat_smile'), -1);
  assert.equal(matchRank('smile', 'sweat_smile'), 0);
});

test('mention suggestions rank prefix matches before substrings, skip inactive users, and add groups and wildcards', () => {
  const names = suggest(tokenAt('@ali')!, data).map((s) => s.label);
  // Zoe Alvarez does not match: 'alv' is not 'ali'.
  assert.deepEqual(names, ['Alice Smith', 'Bob Alison', 'Malik Ali', 'alignment']);
  const recent = suggest(tokenAt('@ali')!, { ...data, recentUserIds: [4] }).map((s) => s.label);
  assert.equal(recent[0], 'Malik Ali');
  assert.deepEqual(suggest(tokenAt('@al')!, data).map((s) => s.label), ['Alice Smith', 'Bob Alison', 'Malik Ali', 'Zoe Alvarez', 'alignment', 'all']);
  assert.deepEqual(suggest(tokenAt('@_al')!, data).map((s) => s.label), ['Alice Smith', 'Bob Alison', 'Malik Ali', 'Zoe Alvarez', 'alignment']);
  assert.deepEqual(suggest(tokenAt('@x.com')!, data, 3).length, 3);
});

test('suggestions carry the markup to insert', () => {
  const [user] = suggest(tokenAt('@alice')!, data);
  assert.equal(user?.markup, '@**Alice Smith|2** ');
  const [silent] = suggest(tokenAt('@_alice')!, data);
  assert.equal(silent?.markup, '@_**Alice Smith|2** ');
  const [group] = suggest(tokenAt('@back')!, data);
  assert.equal(group?.markup, '@*backend* ');
  const [wildcard] = suggest(tokenAt('@every')!, data);
  assert.equal(wildcard?.markup, '@**everyone** ');
  const [stream] = suggest(tokenAt('#des')!, data);
  assert.equal(stream?.markup, '#**design team**');
  const [topic] = suggest(tokenAt('#**general>lun')!, data);
  assert.equal(topic?.markup, '#**general>lunch plans** ');
  const [emoji] = suggest(tokenAt(':tad')!, data);
  assert.equal(emoji?.markup, ':tada: ');
});

test('topic suggestions: recent first, then the typed topic itself', () => {
  assert.deepEqual(suggest(tokenAt('#**general>')!, data).map((s) => s.label), ['lunch plans', 'deploys', 'Launch party']);
  assert.deepEqual(suggest(tokenAt('#**General>la')!, data).map((s) => s.label), ['Launch party', 'lunch plans', 'la']);
  assert.deepEqual(suggest(tokenAt('#**nowhere>x')!, data), []);
});

test('emoji suggestions keep the popular order within a rank', () => {
  assert.deepEqual(suggest(tokenAt(':smi')!, data).map((s) => s.label), ['smile', 'smiley', 'sweat_smile']);
  assert.deepEqual(suggest(tokenAt(':+1')!, data).map((s) => s.label), ['+1']);
});

test('applySuggestion replaces the token and puts the cursor after the insertion', () => {
  const text = 'hi @ali how';
  const token = activeToken(text, 7)!;
  const [s] = suggest(token, data);
  assert.deepEqual(applySuggestion(text, token, s!), { text: 'hi @**Alice Smith|2** how', cursor: 22 });
  const t2 = 'go #**general>lun';
  const tok2 = tokenAt(t2)!;
  assert.deepEqual(applySuggestion(t2, tok2, suggest(tok2, data)[0]!), { text: 'go #**general>lunch plans** ', cursor: 28 });
  const t3 = 'see #gen';
  const tok3 = tokenAt(t3)!;
  const r3 = applySuggestion(t3, tok3, suggest(tok3, data)[0]!);
  assert.deepEqual(r3, { text: 'see #**general**', cursor: 16 });
  // Typing '>' next goes on to the stream's topics.
  assert.equal(tokenAt(r3.text + '>')?.kind, 'topic');
});

test('compose field matchers', () => {
  assert.deepEqual(matchUsers('al', users, { excludeIds: [2] }).map((u) => u.user_id), [3, 4, 1]);
  assert.deepEqual(matchUsers('bob@', users).map((u) => u.user_id), [3]);
  assert.deepEqual(matchUsers('', users, { recentUserIds: [6], limit: 2 }).map((u) => u.user_id), [6, 2]);
  assert.deepEqual(matchStreams('team', data.streams!).map((s) => s.name), ['design team']);
  assert.deepEqual(matchStreams('', data.streams!, { recentStreamIds: [22] }).map((s) => s.name), ['engineering', 'design team', 'general']);
  assert.deepEqual(matchTopics('p', ['lunch plans', 'deploys', 'party']), ['lunch plans', 'party', 'deploys']);
});

test('searchSuggestions: for the last word, operators, whole terms, streams and people, each saying what it finds', () => {
  const lookups = makeLookups(data.streams!, users, 2);
  const search: SearchData = { streams: data.streams!, users, lookups, topics: (id) => (id === 20 ? ['lunch plans', 'deploys', 'links to share'] : []) };
  const labels = (text: string) => searchSuggestions(text, search).map((s) => [s.label, s.detail]);
  assert.deepEqual(labels(''), []);
  assert.deepEqual(labels('pizza '), []);
  // An operator's start: the operators, then the streams and people a word of whose name it starts.
  assert.deepEqual(labels('s'), [
    ['stream:', 'Messages in a stream'],
    ['sender:', 'Messages sent by someone'],
    ['sender:alice@x.com', 'Messages sent by Alice Smith'],
  ]);
  assert.deepEqual(labels('lin'), [['has:link', 'Messages with links']]);
  assert.deepEqual(labels('star'), [['is:starred', 'Starred messages']]);
  assert.deepEqual(labels('eng'), [['stream:engineering', '#engineering']]);
  // After an operator, its operands; a name with a space is quoted; the text before stays.
  assert.deepEqual(labels('stream:des'), [['stream:"design team"', '#design team']]);
  const [pick] = searchSuggestions('pizza channel:gen', search);
  assert.deepEqual(pick, { label: 'stream:general', detail: '#general', text: 'pizza stream:general ', complete: true });
  assert.deepEqual(labels('from:ali'), [
    ['sender:alice@x.com', 'Messages sent by Alice Smith'],
    ['sender:bob@x.com', 'Messages sent by Bob Alison'],
    ['sender:malik@x.com', 'Messages sent by Malik Ali'],
  ]);
  assert.deepEqual(labels('-is:st'), [['-is:starred', 'Leaving out starred messages']]);
  assert.deepEqual(labels('has:'), ['link', 'image', 'attachment', 'reaction'].map((v) => [`has:${v}`, `Messages with ${v}s`]));
  // A topic of the stream the text names.
  assert.deepEqual(labels('stream:general topic:lun'), [['topic:"lunch plans"', '#general > lunch plans']]);
  assert.deepEqual(labels('topic:lun'), []);
  // A word in a stream's search: the topics it starts, before the streams and people.
  assert.deepEqual(labels('stream:general de'), [
    ['topic:deploys', '#general > deploys'],
    ['stream:"design team"', '#design team'],
  ]);
  assert.deepEqual(labels('stream:general topic:deploys de'), [['stream:"design team"', '#design team']]);
  // The stream's topics before the terms the word starts.
  assert.deepEqual(labels('stream:general lin'), [
    ['topic:"links to share"', '#general > links to share'],
    ['has:link', 'Messages with links'],
  ]);
  // An operator to go on from is not a whole term: its text waits for the operand.
  assert.deepEqual(searchSuggestions('stream:general to', search)[0], { label: 'topic:', detail: 'Messages in a topic', text: 'stream:general topic:', complete: false });
  assert.deepEqual(labels('"quoted phr'), []);
});
