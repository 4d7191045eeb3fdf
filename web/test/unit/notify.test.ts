import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  conversationTag,
  notificationDecision,
  notificationTitle,
  TOPIC_FOLLOWED,
  TOPIC_MUTED,
  TOPIC_UNMUTED,
  type NotifyContext,
  type NotifyMessage,
  type NotifySettings,
  type NotifySubscription,
  TONES,
} from '../../lib/notify.ts';

const ME = 1;
const settings: NotifySettings = {
  enable_desktop_notifications: true,
  enable_sounds: true,
  enable_stream_desktop_notifications: false,
  enable_stream_audible_notifications: false,
  wildcard_mentions_notify: true,
  enable_followed_topic_desktop_notifications: true,
  enable_followed_topic_audible_notifications: false,
  enable_followed_topic_wildcard_mentions_notify: true,
  notification_sound: 'ding',
};
const sub: NotifySubscription = { desktop_notifications: null, audible_notifications: null, wildcard_mentions_notify: null, is_muted: false };

const dm = (over: Partial<NotifyMessage> = {}): NotifyMessage => ({
  id: 100,
  type: 'private',
  sender_id: 2,
  sender_full_name: 'Alice',
  flags: [],
  display_recipient: [
    { id: 1, full_name: 'Me' },
    { id: 2, full_name: 'Alice' },
  ],
  ...over,
});
const streamMsg = (flags: string[] = [], over: Partial<NotifyMessage> = {}): NotifyMessage => ({
  id: 101,
  type: 'stream',
  sender_id: 2,
  sender_full_name: 'Alice',
  stream_id: 5,
  subject: 'Lunch',
  flags,
  ...over,
});
const ctx = (over: Partial<NotifyContext> = {}): NotifyContext => ({ myUserId: ME, hidden: true, settings, subscription: sub, ...over });
const both = { desktop: true, sound: true };
const none = { desktop: false, sound: false };

test('DMs, mentions and alert words notify while the tab is hidden', () => {
  assert.deepEqual(notificationDecision(dm(), ctx()), both);
  assert.deepEqual(notificationDecision(streamMsg(['mentioned']), ctx()), both);
  assert.deepEqual(notificationDecision(streamMsg(['has_alert_word']), ctx()), both);
  assert.deepEqual(notificationDecision(streamMsg([]), ctx()), none);
  assert.deepEqual(notificationDecision(dm(), ctx({ hidden: false })), none);
});

test('never for one\'s own, read, or muted-sender messages', () => {
  assert.deepEqual(notificationDecision(dm({ sender_id: ME }), ctx()), none);
  assert.deepEqual(notificationDecision(dm({ flags: ['read'] }), ctx()), none);
  assert.deepEqual(notificationDecision(dm(), ctx({ senderMuted: true })), none);
});

test('muted streams and topics never notify; unmuted or followed topics in a muted stream may', () => {
  const mutedStream = { ...sub, is_muted: true };
  assert.deepEqual(notificationDecision(streamMsg(['mentioned']), ctx({ subscription: mutedStream })), none);
  assert.deepEqual(notificationDecision(streamMsg(['mentioned']), ctx({ topicPolicy: TOPIC_MUTED })), none);
  assert.deepEqual(notificationDecision(streamMsg(['mentioned']), ctx({ subscription: mutedStream, topicPolicy: TOPIC_UNMUTED })), both);
  assert.deepEqual(notificationDecision(streamMsg(['mentioned']), ctx({ subscription: undefined })), none);
});

test('wildcard mentions follow the stream setting, falling back to the user setting', () => {
  const m = streamMsg(['stream_wildcard_mentioned']);
  assert.deepEqual(notificationDecision(m, ctx()), both);
  assert.deepEqual(notificationDecision(m, ctx({ settings: { ...settings, wildcard_mentions_notify: false } })), none);
  assert.deepEqual(notificationDecision(m, ctx({ settings: { ...settings, wildcard_mentions_notify: false }, subscription: { ...sub, wildcard_mentions_notify: true } })), both);
  assert.deepEqual(notificationDecision(streamMsg(['topic_wildcard_mentioned']), ctx({ subscription: { ...sub, wildcard_mentions_notify: false } })), none);
  assert.deepEqual(
    notificationDecision(streamMsg(['topic_wildcard_mentioned']), ctx({ subscription: { ...sub, wildcard_mentions_notify: false }, topicPolicy: TOPIC_FOLLOWED })),
    both,
  );
});

test('per-stream desktop and audible properties, falling back to the user settings', () => {
  assert.deepEqual(notificationDecision(streamMsg(), ctx({ subscription: { ...sub, desktop_notifications: true } })), { desktop: true, sound: false });
  assert.deepEqual(notificationDecision(streamMsg(), ctx({ subscription: { ...sub, audible_notifications: true } })), { desktop: false, sound: true });
  assert.deepEqual(notificationDecision(streamMsg(), ctx({ settings: { ...settings, enable_stream_desktop_notifications: true } })), { desktop: true, sound: false });
  assert.deepEqual(
    notificationDecision(streamMsg(), ctx({ settings: { ...settings, enable_stream_desktop_notifications: true }, subscription: { ...sub, desktop_notifications: false } })),
    none,
  );
});

test('followed topics and the master switches', () => {
  assert.deepEqual(notificationDecision(streamMsg(), ctx({ topicPolicy: TOPIC_FOLLOWED })), { desktop: true, sound: false });
  assert.deepEqual(notificationDecision(dm(), ctx({ settings: { ...settings, enable_desktop_notifications: false } })), { desktop: false, sound: true });
  assert.deepEqual(notificationDecision(dm(), ctx({ settings: { ...settings, enable_sounds: false } })), { desktop: true, sound: false });
  assert.deepEqual(notificationDecision(dm(), ctx({ settings: { ...settings, notification_sound: 'none' } })), { desktop: true, sound: false });
});

test('titles and tags name the conversation', () => {
  assert.equal(notificationTitle(streamMsg(), ME, 'general'), 'Alice (#general > Lunch)');
  assert.equal(notificationTitle(dm(), ME), 'Alice (to you)');
  const group = dm({ display_recipient: [{ id: 1, full_name: 'Me' }, { id: 2, full_name: 'Alice' }, { id: 3, full_name: 'Bob' }, { id: 4, full_name: 'Carol' }] });
  assert.equal(notificationTitle(group, ME), 'Alice (to you and Bob, Carol)');
  assert.equal(conversationTag(group), 'dm:1,2,3,4');
  assert.equal(conversationTag(streamMsg()), 'stream:5:lunch');
});

test("every notification sound the API names has notes of its own (none falls back to another's)", () => {
  const names = ['zulip', 'zulip-ring', 'chime', 'ding', 'heart', 'ping', 'chirp', 'done', 'xylophone'];
  const tunes = names.map((n) => TONES[n]?.join(','));
  assert.ok(tunes.every((t) => t !== undefined), names.filter((n) => !TONES[n]).join(', '));
  assert.equal(new Set(tunes).size, names.length);
});
