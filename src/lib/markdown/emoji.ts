// :emoji_name:, realm custom emoji, emoticons and Unicode emoji, as the reference's spans.
import { emojiCode, emojiTables } from './emoji-data.ts';
import { escapeHtml, tag } from './html.ts';
import type { MarkdownContext } from './types.ts';

export const EMOJI_NAME_RE = /:([\p{L}\p{N}_+-]+):/gu;

const UNICODE_PART = '(?:\\p{Emoji}(?:\\p{Emoji_Modifier}|\\uFE0F\\u20E3?|[\\u{E0020}-\\u{E007E}]+\\u{E007F})?|\\p{Regional_Indicator}\\p{Regional_Indicator})';
export const UNICODE_EMOJI_RE = new RegExp(`${UNICODE_PART}(?:\\u200D${UNICODE_PART})*`, 'gu');
// A lone character that is not an emoji by default presentation (digits, '#', '©' ...).
const TEXT_PRESENTATION_RE = /^\P{Emoji_Presentation}\u20E3?$/u;

const EMOTICONS: Record<string, string> = {
  ':)': 'smile', '(:': 'smile', ':(': 'frown', '<3': 'heart', ':|': 'neutral_face', ':/': 'confused',
  ';)': 'wink', ':D': 'grinning', ':o': 'open_mouth', ':O': 'open_mouth', ':p': 'stuck_out_tongue', ':P': 'stuck_out_tongue',
};
export const EMOTICON_RE = /(?<![\p{L}\p{N}_])(:\)|\(:|:\(|<3|:\||:\/|;\)|:D|:o|:O|:p|:P)(?![\p{L}\p{N}_])/gu;

export function unicodeEmojiSpan(code: string, displayName: string): string {
  const title = displayName.replace(/_/g, ' ');
  return tag('span', { 'aria-label': title, class: `emoji emoji-${code}`, role: 'img', title }, escapeHtml(`:${displayName}:`));
}

function imageEmoji(src: string, name: string): string {
  return tag('img', { alt: `:${name}:`, class: 'emoji', src, title: name.replace(/_/g, ' ') });
}

// HTML for :name:, or undefined when the name is not an emoji here.
export function namedEmoji(name: string, ctx: MarkdownContext): string | undefined {
  const realm = ctx.realmEmoji(name);
  if (realm && !realm.deactivated) return imageEmoji(realm.sourceUrl, name);
  const extra = ctx.extraEmoji?.[name];
  if (extra !== undefined) return imageEmoji(extra, name);
  const code = emojiTables().nameToCode.get(name);
  return code === undefined ? undefined : unicodeEmojiSpan(code, name);
}

export function emoticonEmoji(emoticon: string): string | undefined {
  const name = EMOTICONS[emoticon];
  const code = name === undefined ? undefined : emojiTables().nameToCode.get(name);
  return name === undefined || code === undefined ? undefined : unicodeEmojiSpan(code, name);
}

export function unicodeEmoji(text: string): string | undefined {
  if (TEXT_PRESENTATION_RE.test(text)) return undefined;
  const code = emojiCode(text);
  const name = emojiTables().codeToName.get(code);
  return name === undefined ? undefined : unicodeEmojiSpan(code, name);
}
