// The person's display settings (`user_settings`) as the main view reads them. Looks are
// attributes on the document root that styles.css turns into custom properties and rules;
// the few settings that change behaviour rather than looks are the functions below.
import type { Narrow } from '../store/types.ts';

type Settings = Record<string, unknown>;

/** `user_list_style`: 1 compact, 2 with status, 3 with avatar and status. */
const USER_LIST = { 1: 'compact', 2: 'status', 3: 'avatar' } as const;

/**
 * The root's `data-*` attributes for the settings (null: absent). Defaults are the server's
 * (USER_SETTING_DEFAULTS, src/lib/settings-registry.ts) so a snapshot without a setting looks the same.
 */
export function displayAttributes(s: Settings): Record<string, string | null> {
  return {
    'data-dense': s.dense_mode === false ? null : '',
    'data-fluid': s.fluid_layout_width === true ? '' : null,
    'data-contrast': s.high_contrast_mode === true ? 'high' : null,
    'data-user-list': USER_LIST[s.user_list_style as 1 | 2 | 3] ?? 'status',
    'data-left-userlist': s.left_side_userlist === true ? '' : null,
    'data-emojiset': typeof s.emojiset === 'string' ? s.emojiset : 'google',
  };
}

/** Emoji are shown as `:name:` text rather than pictures. */
export function textEmoji(s: Settings): boolean {
  return s.emojiset === 'text';
}

/** A conversation view: one topic, or direct messages with given people. */
export function isConversation(narrow: Narrow): boolean {
  const ops = new Set(narrow.map((t) => t.operator));
  return (ops.has('topic') && (ops.has('stream') || ops.has('channel'))) || ops.has('dm') || ops.has('pm-with');
}

/**
 * `web_mark_read_on_scroll_policy` (1 always, 2 only in conversation views, 3 never): whether
 * messages seen in this narrow are marked as read by themselves.
 */
export function marksReadOnScroll(s: Settings, narrow: Narrow): boolean {
  const policy = s.web_mark_read_on_scroll_policy;
  if (policy === 3) return false;
  if (policy === 2) return isConversation(narrow);
  return true;
}

/** The reference names who reacted (instead of a count) while a message has this few reactions. */
export const REACTION_NAMES_UP_TO = 3;

/**
 * `display_emoji_reaction_users`: a reaction shows the names of who reacted, when the setting
 * is on and the message has at most REACTION_NAMES_UP_TO reactions in all.
 */
export function showReactionNames(s: Settings, totalReactions: number): boolean {
  return s.display_emoji_reaction_users !== false && totalReactions <= REACTION_NAMES_UP_TO;
}

/** With `demote_inactive_streams` automatic, inactive streams are demoted past this many streams. */
export const DEMOTE_ABOVE = 30;

/**
 * `demote_inactive_streams` (1 automatic, 2 always, 3 never): whether streams not recently
 * active go below the others, dimmed.
 */
export function demotesInactive(s: Settings, streamCount: number): boolean {
  const policy = s.demote_inactive_streams ?? 1;
  if (policy === 2) return true;
  if (policy === 3) return false;
  return streamCount > DEMOTE_ABOVE;
}

/** `starred_message_counts`: the Starred view shows how many messages are starred. */
export function showsStarredCount(s: Settings): boolean {
  return s.starred_message_counts !== false;
}

/** `escape_navigates_to_default_view`: Escape, with nothing else to close, goes home. */
export function escapeGoesHome(s: Settings): boolean {
  return s.escape_navigates_to_default_view !== false;
}

/**
 * `desktop_icon_count_display` (1 all unread messages, 2 direct messages and mentions, 3 none):
 * the count in the tab's title and icon. `dmsAndMentions` is asked for only when needed.
 */
export function badgeCount(s: Settings, total: number, dmsAndMentions: () => number): number {
  if (s.desktop_icon_count_display === 3) return 0;
  if (s.desktop_icon_count_display === 2) return dmsAndMentions();
  return total;
}
