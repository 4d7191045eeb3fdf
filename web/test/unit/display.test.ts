import assert from 'node:assert/strict';
import { test } from 'node:test';
import { badgeCount, demotesInactive, displayAttributes, escapeGoesHome, isConversation, marksReadOnScroll, showReactionNames, showsStarredCount, textEmoji } from '../../lib/display.ts';
import { USER_SETTING_DEFAULTS } from '../../../src/lib/settings-registry.ts';
import type { Narrow } from '../../store/types.ts';

const topic: Narrow = [
  { operator: 'stream', operand: 7 },
  { operator: 'topic', operand: 'lunch' },
];
const stream: Narrow = [{ operator: 'stream', operand: 7 }];
const dm: Narrow = [{ operator: 'dm', operand: [3] }];

test("the server's defaults: dense, fixed width, normal contrast, user list with status", () => {
  assert.deepEqual(displayAttributes(USER_SETTING_DEFAULTS), {
    'data-dense': '',
    'data-fluid': null,
    'data-contrast': null,
    'data-user-list': 'status',
    'data-left-userlist': null,
    'data-emojiset': 'google',
  });
  // A snapshot without settings looks like the defaults.
  assert.deepEqual(displayAttributes({}), displayAttributes(USER_SETTING_DEFAULTS));
});

test('each display setting sets its own root attribute', () => {
  const a = displayAttributes({ dense_mode: false, fluid_layout_width: true, high_contrast_mode: true, user_list_style: 3, left_side_userlist: true, emojiset: 'text' });
  assert.deepEqual(a, {
    'data-dense': null,
    'data-fluid': '',
    'data-contrast': 'high',
    'data-user-list': 'avatar',
    'data-left-userlist': '',
    'data-emojiset': 'text',
  });
  assert.equal(displayAttributes({ user_list_style: 1 })['data-user-list'], 'compact');
  assert.equal(textEmoji({ emojiset: 'text' }), true);
  assert.equal(textEmoji({ emojiset: 'twitter' }), false);
});

test('mark read on scroll: always, only in conversation views, never', () => {
  assert.equal(isConversation(topic), true);
  assert.equal(isConversation(dm), true);
  assert.equal(isConversation(stream), false);
  assert.equal(isConversation([]), false);
  for (const n of [topic, stream, dm, []]) assert.equal(marksReadOnScroll({ web_mark_read_on_scroll_policy: 1 }, n), true);
  assert.equal(marksReadOnScroll({ web_mark_read_on_scroll_policy: 2 }, topic), true);
  assert.equal(marksReadOnScroll({ web_mark_read_on_scroll_policy: 2 }, dm), true);
  assert.equal(marksReadOnScroll({ web_mark_read_on_scroll_policy: 2 }, stream), false);
  assert.equal(marksReadOnScroll({ web_mark_read_on_scroll_policy: 2 }, []), false);
  for (const n of [topic, stream, dm, []]) assert.equal(marksReadOnScroll({ web_mark_read_on_scroll_policy: 3 }, n), false);
});

test('reaction names are shown up to three reactions, when the setting is on', () => {
  assert.equal(showReactionNames({ display_emoji_reaction_users: true }, 3), true);
  assert.equal(showReactionNames({ display_emoji_reaction_users: true }, 4), false);
  assert.equal(showReactionNames({ display_emoji_reaction_users: false }, 1), false);
});

test('inactive streams: demoted automatically past 30 streams, always, or never', () => {
  assert.equal(demotesInactive({ demote_inactive_streams: 1 }, 30), false);
  assert.equal(demotesInactive({ demote_inactive_streams: 1 }, 31), true);
  assert.equal(demotesInactive({ demote_inactive_streams: 2 }, 1), true);
  assert.equal(demotesInactive({ demote_inactive_streams: 3 }, 500), false);
});

test('starred counts and Escape follow their settings', () => {
  assert.equal(showsStarredCount({ starred_message_counts: true }), true);
  assert.equal(showsStarredCount({ starred_message_counts: false }), false);
  assert.equal(escapeGoesHome({ escape_navigates_to_default_view: false }), false);
  assert.equal(escapeGoesHome({}), true);
});

test("the tab's count: all unread messages, direct messages and mentions, or none", () => {
  const dms = () => 2;
  assert.equal(badgeCount({ desktop_icon_count_display: 1 }, 9, dms), 9);
  assert.equal(badgeCount({ desktop_icon_count_display: 2 }, 9, dms), 2);
  assert.equal(badgeCount({ desktop_icon_count_display: 3 }, 9, dms), 0);
});
