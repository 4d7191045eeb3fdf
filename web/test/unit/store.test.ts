// The client store: the register snapshot, then each event type's apply, with the unread
// counts derived from what was applied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Store } from '../../store/index.ts';
import { ScheduledStore } from '../../store/misc.ts';
import { editMark } from '../../store/match.ts';
import { ALICE, dmMessage, streamMessage } from './fixtures.ts';

const ME = 10;
const BOB = 12;

function snapshot(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    queue_id: 'q',
    last_event_id: -1,
    user_id: ME,
    email: 'me@example.com',
    full_name: 'Me',
    realm_users: [
      { user_id: ME, full_name: 'Me', email: 'me@example.com', avatar_url: null, is_bot: false, is_active: true, role: 400 },
      { user_id: ALICE, full_name: 'Alice', email: 'alice@example.com', avatar_url: null, is_bot: false, is_active: true, role: 400 },
      { user_id: BOB, full_name: 'Bob', email: 'bob@example.com', avatar_url: null, is_bot: false, is_active: true, role: 400 },
    ],
    subscriptions: [
      { stream_id: 1, name: 'general', color: '#abc', description: '', is_muted: false, pin_to_top: false, invite_only: false },
      { stream_id: 2, name: 'noise', color: '#def', description: '', is_muted: true, pin_to_top: false, invite_only: false },
    ],
    user_topics: [],
    unread_msgs: {
      count: 4,
      streams: [
        { stream_id: 1, topic: 'lunch', unread_message_ids: [100, 101] },
        { stream_id: 2, topic: 'chatter', unread_message_ids: [102] },
      ],
      pms: [{ other_user_id: ALICE, unread_message_ids: [103] }],
      huddles: [],
      mentions: [101],
    },
    starred_messages: [],
    recent_private_conversations: [{ user_ids: [ALICE], max_message_id: 103 }],
    drafts: [],
    presences: {},
    ...extra,
  };
}

function loaded(extra?: Record<string, unknown>): Store {
  const s = new Store();
  s.load(snapshot(extra));
  return s;
}

test('the snapshot gives unread counts; a muted stream counts apart from the total', () => {
  const s = loaded();
  const c = s.unread.counts.value;
  assert.equal(c.total, 3);
  assert.equal(c.byStream.get(1), 2);
  assert.equal(c.byStream.get(2), 1);
  assert.equal(c.byDm.get(String(ALICE)), 1);
  assert.equal(c.mentions, 1);
  assert.equal(c.dms, 1);
});

test('a message event adds an unread (not for your own read ones) and reaches lists that hold the newest', () => {
  const s = loaded();
  const general = s.messages.list([{ operator: 'channel', operand: 1 }]);
  general.addRange([100, 101], true, true);
  const dms = s.messages.list([{ operator: 'dm', operand: [ALICE] }]);
  dms.addRange([103], true, true);
  s.apply([{ type: 'message', message: streamMessage(104), flags: [] }]);
  s.apply([{ type: 'message', message: streamMessage(105, { sender_id: ME }), flags: ['read'] }]);
  s.apply([{ type: 'message', message: dmMessage(106, [ME, ALICE]), flags: [] }]);
  assert.deepEqual(general.ids, [100, 101, 104, 105]);
  assert.deepEqual(dms.ids, [103, 106]);
  const c = s.unread.counts.value;
  assert.equal(c.total, 5);
  assert.equal(c.byTopic.get(`1\u0000lunch`), 3);
  assert.equal(c.byDm.get(String(ALICE)), 2);
  assert.equal(s.recentDms.value[0]!.maxId, 106);
  // The same event twice (a retried poll) changes nothing.
  s.apply([{ type: 'message', message: streamMessage(104), flags: [] }]);
  assert.deepEqual(general.ids, [100, 101, 104, 105]);
  assert.equal(s.unread.counts.value.total, 5);
});

test('a list that does not reach the newest message leaves live messages to its next fetch', () => {
  const s = loaded();
  const l = s.messages.list([{ operator: 'channel', operand: 1 }]);
  l.addRange([50, 51], true, false);
  s.apply([{ type: 'message', message: streamMessage(104), flags: [] }]);
  assert.deepEqual(l.ids, [50, 51]);
});

test('live messages that come while the first fetch is under way are kept when it answers without them', () => {
  const s = loaded();
  const l = s.messages.list([{ operator: 'channel', operand: 1 }]);
  // The fetch was answered before 104 and 105 were sent; their events came first.
  s.apply([{ type: 'message', message: streamMessage(104), flags: [] }]);
  s.apply([{ type: 'message', message: streamMessage(105), flags: [] }]);
  s.apply([{ type: 'delete_message', message_ids: [105], message_type: 'stream', stream_id: 1, topic: 'lunch' }]);
  l.addRange([100, 101], true, true);
  assert.deepEqual(l.ids, [100, 101, 104]);
  // A fetch that answers with them too adds each once.
  const again = s.messages.list([{ operator: 'channel', operand: 1 }, { operator: 'topic', operand: 'lunch' }]);
  s.apply([{ type: 'message', message: streamMessage(106), flags: [] }]);
  again.addRange([100, 101, 104, 106], true, true);
  assert.deepEqual(again.ids, [100, 101, 104, 106]);
});

test('update_message_flags: read removes unreads, unread with details brings them back, starred follows', () => {
  const s = loaded();
  s.addFetched([streamMessage(100), streamMessage(101, { flags: ['mentioned'] })]);
  s.apply([{ type: 'update_message_flags', op: 'add', flag: 'read', messages: [100, 101, 103], all: false }]);
  let c = s.unread.counts.value;
  assert.equal(c.total, 0);
  assert.equal(c.mentions, 0);
  assert.ok(s.messages.byId.get(100)!.flags.includes('read'));
  s.apply([
    {
      type: 'update_message_flags',
      op: 'remove',
      flag: 'read',
      messages: [101, 103],
      all: false,
      message_details: {
        101: { type: 'stream', stream_id: 1, topic: 'lunch', mentioned: true },
        103: { type: 'private', user_ids: [ALICE] },
      },
    },
  ]);
  c = s.unread.counts.value;
  assert.equal(c.total, 2);
  assert.equal(c.mentions, 1);
  assert.equal(c.byDm.get(String(ALICE)), 1);
  const starredList = s.messages.list([{ operator: 'is', operand: 'starred' }]);
  starredList.addRange([], true, true);
  s.apply([{ type: 'update_message_flags', op: 'add', flag: 'starred', messages: [100], all: false }]);
  assert.deepEqual([...s.starred.value], [100]);
  assert.deepEqual(starredList.ids, [100]);
  s.apply([{ type: 'update_message_flags', op: 'remove', flag: 'starred', messages: [100], all: false }]);
  assert.deepEqual(starredList.ids, []);
});

test('update_message_flags that change no message leave the lists as they are (no redraw)', () => {
  const s = loaded();
  s.addFetched([streamMessage(100), streamMessage(101, { flags: ['read'] })]);
  const before = s.messages.version.value;
  // The echo of read marks already applied here, and marks for messages not loaded.
  s.apply([{ type: 'update_message_flags', op: 'add', flag: 'read', messages: [101, 999], all: false }]);
  assert.equal(s.messages.version.value, before);
  s.apply([{ type: 'update_message_flags', op: 'add', flag: 'read', messages: [100], all: false }]);
  assert.equal(s.messages.version.value, before + 1);
  assert.ok(s.messages.byId.get(100)!.flags.includes('read'));
});

test('a fetched message the snapshot did not list as unread (old unreads) becomes unread', () => {
  const s = loaded();
  s.addFetched([streamMessage(5)]);
  assert.ok(s.unread.has(5));
  s.addFetched([streamMessage(100, { flags: ['read'] })]);
  assert.ok(!s.unread.has(100));
});

test('delete_message removes messages from lists, unreads and stars', () => {
  const s = loaded({ starred_messages: [100] });
  const l = s.messages.list([]);
  l.addRange([100, 101, 103], true, true);
  s.apply([{ type: 'delete_message', message_type: 'stream', message_ids: [100, 101] }]);
  assert.deepEqual(l.ids, [103]);
  assert.equal(s.unread.counts.value.byStream.get(1), undefined);
  assert.equal(s.starred.value.size, 0);
});

test('update_message: an edit changes content and mentions; a topic move moves lists, unreads and topics', () => {
  const s = loaded();
  s.addFetched([streamMessage(100), streamMessage(101, { flags: ['mentioned'] })]);
  const lunch = s.messages.list([
    { operator: 'channel', operand: 1 },
    { operator: 'topic', operand: 'lunch' },
  ]);
  lunch.addRange([100, 101], true, true);
  const dinner = s.messages.list([
    { operator: 'channel', operand: 1 },
    { operator: 'topic', operand: 'dinner' },
  ]);
  dinner.addRange([], true, true);
  s.apply([{ type: 'update_message', message_id: 101, message_ids: [101], rendered_content: '<p>new</p>', content: 'new', edit_timestamp: 5, flags: [] }]);
  assert.equal(s.messages.byId.get(101)!.content, '<p>new</p>');
  assert.equal(s.messages.byId.get(101)!.last_edit_timestamp, 5);
  assert.equal(s.unread.counts.value.mentions, 0);
  s.apply([{ type: 'update_message', message_id: 100, message_ids: [100, 101], stream_id: 1, orig_subject: 'lunch', subject: 'dinner', propagate_mode: 'change_all', edit_timestamp: 6 }]);
  assert.deepEqual(lunch.ids, []);
  assert.deepEqual(dinner.ids, [100, 101]);
  const c = s.unread.counts.value;
  assert.equal(c.byTopic.get(`1\u0000lunch`), undefined);
  assert.equal(c.byTopic.get(`1\u0000dinner`), 2);
  assert.deepEqual(s.streams.topics.value.get(1)!.map((t) => t.name), ['dinner']);
});

test("a message's mark: moved while only its topic or stream changed, edited once its content did; a link preview is neither", () => {
  const s = loaded();
  s.addFetched([streamMessage(100, { edit_history: [] }), streamMessage(101), streamMessage(102, { last_edit_timestamp: 3, edit_history: [{ timestamp: 3, prev_topic: 'brunch' }] })]);
  const mark = (id: number) => editMark(s.messages.byId.get(id)!);
  assert.deepEqual([mark(100), mark(101), mark(102)], [null, null, 'moved']);
  s.apply([{ type: 'update_message', message_id: 100, message_ids: [100], rendered_content: '<p>x</p>', content: 'x', edit_timestamp: 4, rendering_only: true, flags: [] }]);
  assert.equal(mark(100), null);
  s.apply([{ type: 'update_message', message_id: 100, message_ids: [100, 101], stream_id: 1, orig_subject: 'lunch', subject: 'dinner', propagate_mode: 'change_all', edit_timestamp: 5 }]);
  // 101 came without a history, as the server sends a message never edited: the move is all of it
  // (it read "edited" until the page was loaded again).
  assert.deepEqual([mark(100), mark(101)], ['moved', 'moved']);
  assert.deepEqual(s.messages.byId.get(100)!.edit_history, [{ timestamp: 5, prev_topic: 'lunch' }]);
  s.apply([{ type: 'update_message', message_id: 100, message_ids: [100], rendered_content: '<p>y</p>', content: 'y', orig_content: 'x', edit_timestamp: 6, rendering_only: false, flags: [] }]);
  assert.equal(mark(100), 'edited');
  s.apply([{ type: 'update_message', message_id: 101, message_ids: [101], rendered_content: '<p>z</p>', content: 'z', orig_content: 'x', edit_timestamp: 7, rendering_only: false, flags: [] }]);
  assert.equal(mark(101), 'edited');
});

test("where the organization hides edit history, messages come without it, and any change to one reads as an edit", () => {
  const s = loaded({ realm_allow_edit_history: false });
  s.addFetched([streamMessage(101), streamMessage(102, { last_edit_timestamp: 3 })]);
  s.apply([{ type: 'update_message', message_id: 101, message_ids: [101, 102], stream_id: 1, orig_subject: 'lunch', subject: 'dinner', propagate_mode: 'change_all', edit_timestamp: 5 }]);
  assert.deepEqual([101, 102].map((id) => editMark(s.messages.byId.get(id)!)), ['edited', 'edited']);
});

test('reactions add and remove once per user and emoji', () => {
  const s = loaded();
  s.addFetched([streamMessage(100)]);
  const r = { type: 'reaction', message_id: 100, emoji_name: 'smile', emoji_code: '1f604', reaction_type: 'unicode_emoji', user_id: BOB };
  s.apply([{ ...r, op: 'add' }, { ...r, op: 'add' }]);
  assert.equal(s.messages.byId.get(100)!.reactions.length, 1);
  s.apply([{ ...r, op: 'remove' }]);
  assert.equal(s.messages.byId.get(100)!.reactions.length, 0);
});

test('muting a stream or a topic changes the total without any message event', () => {
  const s = loaded();
  assert.equal(s.unread.counts.value.total, 3);
  s.apply([{ type: 'subscription', op: 'update', stream_id: 1, property: 'is_muted', value: true }]);
  assert.equal(s.unread.counts.value.total, 1);
  s.apply([{ type: 'user_topic', stream_id: 1, topic_name: 'Lunch', visibility_policy: 2, last_updated: 0 }]);
  assert.equal(s.unread.counts.value.total, 3);
  s.apply([{ type: 'user_topic', stream_id: 1, topic_name: 'lunch', visibility_policy: 1, last_updated: 0 }]);
  s.apply([{ type: 'subscription', op: 'update', stream_id: 1, property: 'is_muted', value: false }]);
  assert.equal(s.unread.counts.value.total, 1);
  assert.equal(s.unread.counts.value.byTopic.get(`1\u0000lunch`), undefined);
});

test('typing: start and stop per conversation, a message ends it, silence expires it', () => {
  const s = loaded();
  s.apply([{ type: 'typing', op: 'start', message_type: 'stream', stream_id: 1, topic: 'lunch', sender: { user_id: ALICE, email: 'a' } }]);
  s.apply([{ type: 'typing', op: 'start', message_type: 'direct', sender: { user_id: BOB, email: 'b' }, recipients: [{ user_id: BOB }, { user_id: ME }] }]);
  assert.equal(s.typing.byConversation.value.get('s:1:lunch')![0]!.userId, ALICE);
  assert.equal(s.typing.byConversation.value.get(`d:${BOB}`)![0]!.userId, BOB);
  s.apply([{ type: 'message', message: streamMessage(200), flags: [] }]);
  assert.equal(s.typing.byConversation.value.get('s:1:lunch'), undefined);
  s.typing.expire(Date.now() + 20_000);
  assert.equal(s.typing.byConversation.value.size, 0);
});

test('users, subscriptions, streams, drafts and settings follow their events', () => {
  const s = loaded({ user_settings: { enter_sends: false } });
  s.apply([
    { type: 'realm_user', op: 'add', person: { user_id: 13, full_name: 'Carol', email: 'carol@example.com', avatar_url: null, is_bot: false, role: 400 } },
    { type: 'realm_user', op: 'update', person: { user_id: ALICE, full_name: 'Alice A.' } },
    { type: 'subscription', op: 'add', subscriptions: [{ stream_id: 3, name: 'design', color: '#123', description: '', is_muted: false, pin_to_top: false, invite_only: true }] },
    { type: 'subscription', op: 'remove', subscriptions: [{ stream_id: 2, name: 'noise' }] },
    { type: 'stream', op: 'update', stream_id: 1, property: 'name', value: 'main', name: 'general' },
    { type: 'drafts', op: 'add', drafts: [{ id: 1, type: 'stream', to: [1], topic: 't', content: 'hi', timestamp: 1 }] },
    { type: 'drafts', op: 'update', draft: { id: 1, type: 'stream', to: [1], topic: 't', content: 'hello', timestamp: 2 } },
    { type: 'user_settings', op: 'update', property: 'enter_sends', value: true },
    { type: 'presence', user_id: BOB, email: 'bob@example.com', server_timestamp: Date.now() / 1000, presence: { website: { status: 'active', timestamp: Math.floor(Date.now() / 1000), client: 'website', pushable: false } } },
  ]);
  assert.equal(s.users.name(13), 'Carol');
  assert.equal(s.users.name(ALICE), 'Alice A.');
  assert.deepEqual(s.streams.sorted.value.map((x) => x.name), ['design', 'main']);
  assert.equal(s.drafts.byId.value.get(1)!.content, 'hello');
  assert.equal(s.settings.user.value.enter_sends, true);
  assert.equal(s.users.status(BOB), 'active');
  assert.equal(s.users.status(ALICE), 'offline');
  s.apply([{ type: 'drafts', op: 'remove', draft_id: 1 }, { type: 'realm_user', op: 'remove', person: { user_id: 13 } }]);
  assert.equal(s.drafts.byId.value.size, 0);
  assert.equal(s.users.active.value.some((u) => u.user_id === 13), false);
});

test("each stream's subscribers: the snapshot's three lists, then your own and other people's subscription events", () => {
  const s = loaded({
    subscriptions: [{ stream_id: 1, name: 'general', color: '#abc', description: '', is_muted: false, pin_to_top: false, invite_only: false, subscribers: [ME, ALICE] }],
    unsubscribed: [{ stream_id: 2, name: 'noise', description: '', invite_only: false, subscribers: [BOB] }],
    never_subscribed: [{ stream_id: 4, name: 'quiet', description: '', invite_only: false, subscribers: [] }],
  });
  const count = () => Object.fromEntries([...s.streams.subscribers.value].map(([id, set]) => [id, [...set].sort((a, b) => a - b)]));
  assert.deepEqual(count(), { 1: [ME, ALICE], 2: [BOB], 4: [] });
  s.apply([
    { type: 'subscription', op: 'peer_add', stream_ids: [1, 4], user_ids: [BOB] },
    { type: 'subscription', op: 'peer_remove', stream_ids: [1], user_ids: [ALICE] },
    { type: 'subscription', op: 'add', subscriptions: [{ stream_id: 2, name: 'noise', color: '#def', description: '', is_muted: false, pin_to_top: false, invite_only: false, subscribers: [ME, BOB] }] },
    { type: 'subscription', op: 'remove', subscriptions: [{ stream_id: 1, name: 'general' }] },
    // A stream made since, which you never joined: known from the first peer event.
    { type: 'subscription', op: 'peer_add', stream_ids: [5], user_ids: [ALICE] },
  ]);
  assert.deepEqual(count(), { 1: [BOB], 2: [ME, BOB], 4: [BOB], 5: [ALICE] });
  s.apply([{ type: 'stream', op: 'delete', streams: [{ stream_id: 4, name: 'quiet' }], stream_ids: [4] }]);
  assert.equal(s.streams.subscribers.value.has(4), false);
});

test('scheduled messages: the snapshot, then add, update and remove events, earliest first', () => {
  const s = new ScheduledStore();
  const m = (id: number, at: number, content = 'x') => ({ scheduled_message_id: id, type: 'stream' as const, to: 1, topic: 't', content, rendered_content: `<p>${content}</p>`, scheduled_delivery_timestamp: at, failed: false });
  s.load({ scheduled_messages: [m(1, 300), m(2, 100)] });
  assert.deepEqual(s.sorted().map((x) => x.scheduled_message_id), [2, 1]);
  s.apply({ op: 'add', scheduled_messages: [m(3, 200)] });
  assert.deepEqual(s.sorted().map((x) => x.scheduled_message_id), [2, 3, 1]);
  // An update carries the changed message; it moves to its new time.
  s.apply({ op: 'update', scheduled_message: { ...m(2, 400, 'later'), failed: true } });
  assert.deepEqual(s.sorted().map((x) => [x.scheduled_message_id, x.content, x.failed]), [[3, 'x', false], [1, 'x', false], [2, 'later', true]]);
  s.apply({ op: 'remove', scheduled_message_id: 3 });
  assert.deepEqual(s.sorted().map((x) => x.scheduled_message_id), [1, 2]);
});

test('user groups offered for @-mentions: not system groups, renamed and described by update, gone when deactivated or removed', () => {
  const s = new Store();
  s.load(
    snapshot({
      realm_user_groups: [
        { id: 1, name: 'role:members', is_system_group: true },
        { id: 5, name: 'designers', description: 'People who design', is_system_group: false },
        { id: 6, name: 'writers', description: '', is_system_group: false },
      ],
    }),
  );
  const writers = { id: 6, name: 'writers', description: '' };
  assert.deepEqual(s.settings.groups.value, [{ id: 5, name: 'designers', description: 'People who design' }, writers]);
  s.apply([{ type: 'user_group', op: 'update', group_id: 5, data: { name: 'design team' } }]);
  s.apply([{ type: 'user_group', op: 'update', group_id: 5, data: { description: 'Logos and colours' } }]);
  assert.deepEqual(s.settings.groups.value, [{ id: 5, name: 'design team', description: 'Logos and colours' }, writers]);
  // Deactivated, a group leaves the snapshot (the server's apply): mentioning it would mention nobody.
  s.apply([{ type: 'user_group', op: 'update', group_id: 5, data: { deactivated: true } }]);
  assert.deepEqual(s.settings.groups.value, [writers]);
  s.apply([{ type: 'user_group', op: 'remove', group_id: 6 }]);
  assert.deepEqual(s.settings.groups.value, []);
});

test('who is in a user group: its members and, through its subgroups, theirs; membership follows the events', () => {
  const s = new Store();
  const group = (id: number, members: number[], subgroups: number[] = []) => ({ id, name: `g${id}`, description: '', members, direct_subgroup_ids: subgroups, is_system_group: false });
  // 7 holds 8, which holds 9, which holds 7 again (a cycle must not loop).
  s.load(snapshot({ realm_user_groups: [group(5, [ME]), group(6, [BOB]), group(7, [], [8]), group(8, [ALICE], [9]), group(9, [ME], [7])] }));
  assert.deepEqual([5, 6, 7, 8, 9, 99].map((id) => s.admin.inGroup(id, ME)), [true, false, true, true, true, false]);
  assert.equal(s.admin.inGroup(7, BOB), false);
  s.apply([{ type: 'user_group', op: 'add_members', group_id: 6, user_ids: [ME] }]);
  s.apply([{ type: 'user_group', op: 'remove_members', group_id: 5, user_ids: [ME] }]);
  s.apply([{ type: 'user_group', op: 'add_subgroups', group_id: 7, direct_subgroup_ids: [6] }]);
  assert.deepEqual([5, 6, 7].map((id) => s.admin.inGroup(id, ME)), [false, true, true]);
  assert.equal(s.admin.inGroup(7, BOB), true);
});

test("a topic keeps its place in the stream's topics while messages stay in it: moving one message or the later ones leaves it", () => {
  const s = loaded();
  s.addFetched([streamMessage(100), streamMessage(101), streamMessage(102)]);
  const topics = (id: number) => s.streams.topics.value.get(id)?.map((t) => t.name) ?? [];
  assert.deepEqual(topics(1), ['lunch']);
  s.apply([{ type: 'update_message', message_id: 101, message_ids: [101], stream_id: 1, orig_subject: 'lunch', subject: 'dinner', propagate_mode: 'change_one', edit_timestamp: 5 }]);
  assert.deepEqual(topics(1).sort(), ['dinner', 'lunch']);
  s.apply([{ type: 'update_message', message_id: 102, message_ids: [102], stream_id: 1, new_stream_id: 2, orig_subject: 'lunch', subject: 'lunch', propagate_mode: 'change_later', edit_timestamp: 6 }]);
  assert.deepEqual(topics(1).sort(), ['dinner', 'lunch']);
  assert.ok(topics(2).includes('lunch'));
  s.apply([{ type: 'update_message', message_id: 100, message_ids: [100], stream_id: 1, orig_subject: 'lunch', subject: 'dinner', propagate_mode: 'change_all', edit_timestamp: 7 }]);
  assert.deepEqual(topics(1), ['dinner']);
});
