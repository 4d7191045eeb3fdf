// The Inbox's grouping and Recent conversations' rows and filters, derived from a real Store
// filled by a register snapshot and events; and Recent's history paging against a real server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Store } from '../../store/index.ts';
import { conversationContext, filterRecent, inboxGroups, matchesWords, narrowOf, recentRows, DEFAULT_RECENT_FILTERS, type RecentRow } from '../../store/conversations.ts';
import type { Message } from '../../store/types.ts';
import { ALICE, dmMessage, streamMessage } from './fixtures.ts';
import { startServer } from '../../../test/helpers/server.ts';
import { Api } from '../../api/http.ts';
import { Client } from '../../api/client.ts';
import { RecentHistory } from '../../api/recent.ts';

const ME = 10;
const BOB = 12;
const user = (user_id: number, full_name: string) => ({ user_id, full_name, email: `${full_name.toLowerCase()}@example.com`, avatar_url: null, is_bot: false, is_active: true, role: 400 });
const sub = (stream_id: number, name: string, extra: Record<string, unknown> = {}) => ({ stream_id, name, color: '#abc', description: '', is_muted: false, pin_to_top: false, invite_only: false, ...extra });

function store(unread: { streams?: { stream_id: number; topic: string; unread_message_ids: number[] }[]; pms?: { other_user_id: number; unread_message_ids: number[] }[]; huddles?: { user_ids_string: string; unread_message_ids: number[] }[]; mentions?: number[] } = {}, extra: Record<string, unknown> = {}): Store {
  const s = new Store();
  s.load({
    user_id: ME,
    email: 'me@example.com',
    full_name: 'Me',
    realm_users: [user(ME, 'Me'), user(ALICE, 'Alice'), user(BOB, 'Bob')],
    // Sidebar order: pinned first, then by name.
    subscriptions: [sub(1, 'general'), sub(2, 'noise', { is_muted: true }), sub(3, 'design'), sub(4, 'zulu', { pin_to_top: true })],
    user_topics: [],
    unread_msgs: { streams: [], pms: [], huddles: [], mentions: [], ...unread },
    recent_private_conversations: [],
    ...extra,
  });
  return s;
}

const message = (id: number, opts: Partial<Message> = {}) => streamMessage(id, { flags: ['read'], ...opts });
const dm = (id: number, users: number[], sender = ALICE, flags = ['read']) => dmMessage(id, users, sender, { flags });

const inbox = (s: Store, filter = '') => inboxGroups(s.unread.entries, conversationContext(s).value, filter);
const recent = (s: Store) => recentRows(s.messages.byId.values(), s.unread.entries, conversationContext(s).value);

test('the Inbox groups unread topics under their streams in sidebar order, newest topic first, DMs apart', () => {
  const s = store({
    streams: [
      { stream_id: 1, topic: 'lunch', unread_message_ids: [100, 101] },
      { stream_id: 1, topic: 'Deploys', unread_message_ids: [105] },
      { stream_id: 3, topic: 'logo', unread_message_ids: [102] },
      { stream_id: 4, topic: 'pinned', unread_message_ids: [90] },
    ],
    pms: [{ other_user_id: ALICE, unread_message_ids: [103] }],
    huddles: [{ user_ids_string: `${ME},${ALICE},${BOB}`, unread_message_ids: [106, 107] }],
    mentions: [101, 107],
  });
  const g = inbox(s);
  assert.deepEqual(
    g.streams.map((st) => [st.name, st.count, st.mentions, st.topics.map((t) => [t.label, t.count, t.mentions, t.ids])]),
    [
      ['zulu', 1, 0, [['pinned', 1, 0, [90]]]],
      ['design', 1, 0, [['logo', 1, 0, [102]]]],
      ['general', 3, 1, [['Deploys', 1, 0, [105]], ['lunch', 2, 1, [100, 101]]]],
    ],
  );
  assert.deepEqual(
    g.dms.map((r) => [r.label, r.count, r.mentions]),
    [
      ['Alice, Bob', 2, 1],
      ['Alice', 1, 0],
    ],
  );
  assert.deepEqual(narrowOf(g.dms[0]!.conversation), [{ operator: 'dm', operand: [ALICE, BOB] }]);
  assert.deepEqual(narrowOf(g.streams[2]!.topics[1]!.conversation), [
    { operator: 'stream', operand: 1 },
    { operator: 'topic', operand: 'lunch' },
  ]);
});

test('the Inbox leaves out muted streams and topics unless a topic is unmuted or followed, and unsubscribed streams', () => {
  const s = store(
    {
      streams: [
        { stream_id: 2, topic: 'chatter', unread_message_ids: [100] },
        { stream_id: 2, topic: 'wanted', unread_message_ids: [101] },
        { stream_id: 1, topic: 'boring', unread_message_ids: [102] },
        { stream_id: 1, topic: 'lunch', unread_message_ids: [103] },
        { stream_id: 99, topic: 'gone', unread_message_ids: [104] },
      ],
    },
    {
      user_topics: [
        { stream_id: 2, topic_name: 'wanted', visibility_policy: 3 },
        { stream_id: 1, topic_name: 'boring', visibility_policy: 1 },
      ],
    },
  );
  const g = inbox(s);
  assert.deepEqual(
    g.streams.map((st) => [st.name, st.topics.map((t) => t.label)]),
    [
      ['general', ['lunch']],
      ['noise', ['wanted']],
    ],
  );
  // Muting the topic live takes it out.
  s.apply([{ type: 'user_topic', stream_id: 1, topic_name: 'lunch', visibility_policy: 1, last_updated: 0 }]);
  assert.deepEqual(
    inbox(s).streams.map((st) => st.name),
    ['noise'],
  );
});

test('the Inbox follows events: a new message adds its row, reading removes it, a move carries it', () => {
  const s = store();
  assert.deepEqual(inbox(s), { dms: [], streams: [] });
  s.apply([{ type: 'message', message: message(200, { flags: [] }), flags: [] }]);
  s.apply([{ type: 'message', message: message(201, { subject: 'other', flags: [] }), flags: ['mentioned'] }]);
  assert.deepEqual(
    inbox(s).streams[0]!.topics.map((t) => [t.label, t.count, t.mentions]),
    [
      ['other', 1, 1],
      ['lunch', 1, 0],
    ],
  );
  s.apply([{ type: 'update_message', message_id: 201, message_ids: [201], stream_id: 1, orig_subject: 'other', subject: 'lunch', propagate_mode: 'change_one', flags: ['mentioned'], edit_timestamp: 1 }]);
  assert.deepEqual(
    inbox(s).streams[0]!.topics.map((t) => [t.label, t.count, t.mentions]),
    [['lunch', 2, 1]],
  );
  s.apply([{ type: 'update_message_flags', op: 'add', flag: 'read', messages: [200, 201], all: false }]);
  assert.deepEqual(inbox(s), { dms: [], streams: [] });
});

test('the Inbox filter matches every word against stream, topic and names', () => {
  const s = store({
    streams: [
      { stream_id: 1, topic: 'lunch plans', unread_message_ids: [100] },
      { stream_id: 3, topic: 'lunch logo', unread_message_ids: [101] },
    ],
    pms: [{ other_user_id: BOB, unread_message_ids: [102] }],
  });
  assert.deepEqual(
    inbox(s, 'LUNCH').streams.map((st) => st.name),
    ['design', 'general'],
  );
  assert.deepEqual(
    inbox(s, 'design lunch').streams.map((st) => [st.name, st.topics.map((t) => t.label)]),
    [['design', ['lunch logo']]],
  );
  assert.deepEqual(
    inbox(s, 'bob').dms.map((r) => r.label),
    ['Bob'],
  );
  assert.deepEqual(inbox(s, 'bob').streams, []);
  assert.equal(matchesWords('  ', 'x'), true);
  assert.equal(matchesWords('a z', 'abc'), false);
});

test('Recent lists every loaded conversation by its newest message, with senders, taking part and unreads', () => {
  const s = store({ streams: [{ stream_id: 1, topic: 'lunch', unread_message_ids: [105] }], mentions: [105] });
  s.addFetched([
    message(100, { sender_id: BOB }),
    message(101, { sender_id: ME }),
    message(102, { subject: 'logo', stream_id: 3 }),
    dm(103, [ME, ALICE]),
    dm(104, [ME, ALICE, BOB], ME),
    message(105, { subject: 'LUNCH', flags: ['mentioned'] }),
    message(106, { stream_id: 99, subject: 'unsubscribed' }),
  ]);
  const rows = recent(s);
  const summary = (r: RecentRow) => [r.label, r.topicLabel, r.maxId, r.senders, r.participated, r.unread, r.mentions];
  assert.deepEqual(rows.map(summary), [
    ['general', 'LUNCH', 105, [ALICE, ME, BOB], true, 1, 1],
    ['Alice, Bob', '', 104, [ME, ALICE, BOB], true, 0, 0],
    ['Alice', '', 103, [ALICE], false, 0, 0],
    ['design', 'logo', 102, [ALICE], false, 0, 0],
  ]);
  assert.equal(rows[0]!.timestamp, 1_700_000_105);

  // A live message moves its conversation to the top.
  s.apply([{ type: 'message', message: message(107, { stream_id: 3, subject: 'logo', sender_id: BOB, flags: [] }), flags: [] }]);
  assert.deepEqual(
    recent(s).map((r) => [r.topicLabel || r.label, r.unread]),
    [
      ['logo', 1],
      ['LUNCH', 1],
      ['Alice, Bob', 0],
      ['Alice', 0],
    ],
  );
  // Deleting a conversation's messages removes it.
  s.apply([{ type: 'delete_message', message_ids: [102, 107], message_type: 'stream' }]);
  assert.deepEqual(
    recent(s).map((r) => r.maxId),
    [105, 104, 103],
  );
});

test('Recent filters: unread, participated, muted, kind and text', () => {
  const s = store({ streams: [{ stream_id: 3, topic: 'logo', unread_message_ids: [102] }] }, { user_topics: [{ stream_id: 1, topic_name: 'quiet', visibility_policy: 1 }] });
  s.addFetched([message(100, { sender_id: ME }), message(101, { subject: 'quiet' }), message(102, { subject: 'logo', stream_id: 3, flags: [] }), message(103, { stream_id: 2, subject: 'chatter' }), dm(104, [ME, BOB], BOB)]);
  const ctx = conversationContext(s).value;
  const names = (f: Partial<typeof DEFAULT_RECENT_FILTERS>) => filterRecent(recent(s), { ...DEFAULT_RECENT_FILTERS, ...f }, ctx).map((r) => r.topicLabel || r.label);
  assert.deepEqual(names({}), ['Bob', 'logo', 'lunch']);
  assert.deepEqual(names({ includeMuted: true }), ['Bob', 'chatter', 'logo', 'quiet', 'lunch']);
  assert.deepEqual(names({ unreadOnly: true }), ['logo']);
  assert.deepEqual(names({ participated: true }), ['lunch']);
  assert.deepEqual(names({ kind: 'dms' }), ['Bob']);
  assert.deepEqual(names({ kind: 'streams' }), ['logo', 'lunch']);
  // Text matches the stream, the topic and the participants' names.
  assert.deepEqual(names({ text: 'design' }), ['logo']);
  assert.deepEqual(names({ text: 'alice' }), ['logo']);
  assert.deepEqual(names({ text: 'general me' }), ['lunch']);
});

test('Recent history pages back through GET /messages until the oldest message', async () => {
  const s = await startServer();
  const client = new Client(new Api({ base: `${s.baseUrl}/api/v1`, headers: { Authorization: 'Basic ' + Buffer.from(`${s.owner.email}:${s.owner.apiKey}`).toString('base64') } }), new Store());
  try {
    await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'general' }] });
    const sent: number[] = [];
    for (let i = 0; i < 5; i++) sent.push((await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: `t${i}`, content: `m${i}` })).id as number);
    await client.start();
    const history = new RecentHistory(client, 2);
    await history.refresh();
    const topics = () => recent(client.store).map((r) => r.topicLabel);
    assert.deepEqual(topics(), ['t4', 't3']);
    assert.equal(history.foundOldest.value, false);
    await history.more();
    assert.deepEqual(topics(), ['t4', 't3', 't2', 't1']);
    await history.more();
    await history.more();
    assert.ok(topics().includes('t0'));
    // The realm's first messages (welcome bots) may lie before ours: page until the end.
    for (let i = 0; i < 10 && !history.foundOldest.value; i++) await history.more();
    assert.equal(history.foundOldest.value, true);
    assert.equal(history.oldest.value! <= sent[0]!, true);
    // Opening again fetches the newest page without losing the older ones.
    await history.refresh();
    assert.equal(history.foundOldest.value, true);
    assert.deepEqual(topics().slice(0, 5), ['t4', 't3', 't2', 't1', 't0']);
  } finally {
    await client.stop();
    await s.close();
  }
});

test('Recent history of an organization without messages ends at once', async () => {
  const s = await startServer();
  const client = new Client(new Api({ base: `${s.baseUrl}/api/v1`, headers: { Authorization: 'Basic ' + Buffer.from(`${s.owner.email}:${s.owner.apiKey}`).toString('base64') } }), new Store());
  try {
    await client.start();
    const history = new RecentHistory(client, 2);
    const none = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: '[]' });
    assert.deepEqual(none.messages, []);
    await history.refresh();
    assert.equal(history.foundOldest.value, true);
    assert.equal(history.oldest.value, null);
    assert.equal(history.loading.value, false);
  } finally {
    await client.stop();
    await s.close();
  }
});
