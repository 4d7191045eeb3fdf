// The Markdown renderer of the reference dialect. See README.md in this folder.
import { formatCode } from './code.ts';
import { markdownEngine } from './engine.ts';
import type { RenderEnv } from './env.ts';
import { escapeHtml } from './html.ts';
import { compileLinkifiers, type CompiledLinkifier } from './linkify.ts';
import { formatMathBlock } from './math.ts';
import { preprocess } from './preprocess.ts';
import type { MarkdownContext, References, RenderResult } from './types.ts';
import { countWork } from './work.ts';

export type * from './types.ts';
export { topicLinks } from './linkify.ts';

// Larger inputs are shown as escaped text: callers limit message length long before this.
export const MAX_RENDER_INPUT = 100_000;

function emptyResult(): RenderResult {
  return { html: '', mentionedUserIds: [], mentionedGroupIds: [], wildcard: null, isMeMessage: false, links: [], uploadPaths: [], hasImage: false, linksForPreview: [] };
}

/**
 * One line of plain words: ASCII letters and digits, spaces, and , ? ! ' " anywhere, a dot only
 * before a space or at the end (so no bare domain), starting with a letter (so no list, heading,
 * quote or code) and ending with no space. Nothing else in the dialect can make any of it markup
 * (emoji, mentions, links, emphasis, escapes, times and math all need other characters), so it
 * renders as a paragraph of itself, unless a linkifier of the realm matches it.
 */
const PLAIN_LINE_RE = /^[A-Za-z](?:[A-Za-z0-9,?!'" ]|\.(?= |$))*(?<! )$/;

/**
 * A short plain message ("sounds good, see you then") as the parse would render it, or null.
 * Most chat messages are such, and the parse costs some 150 µs even for one word.
 */
function plainParagraph(content: string, linkifiers: readonly CompiledLinkifier[]): string | null {
  if (!PLAIN_LINE_RE.test(content)) return null;
  for (const l of linkifiers) {
    l.re.lastIndex = 0;
    const linked = l.re.test(content);
    l.re.lastIndex = 0;
    if (linked) return null;
  }
  return `<p>${content}</p>`;
}

export function renderMarkdown(content: string, ctx: MarkdownContext): RenderResult {
  const linkifiers = compileLinkifiers(ctx.linkifiers);
  const plain = plainParagraph(content, linkifiers);
  if (plain === null) return parseAndRender(content, ctx, linkifiers);
  const result = emptyResult();
  result.html = plain;
  return result;
}

/** renderMarkdown without its shortcut for plain words (tests compare the two). */
export function parseAndRender(content: string, ctx: MarkdownContext, linkifiers = compileLinkifiers(ctx.linkifiers)): RenderResult {
  const result = emptyResult();
  if (content.length > MAX_RENDER_INPUT) {
    result.html = `<p>${escapeHtml(content)}</p>`;
    return result;
  }
  const pre = preprocess(content, { code: formatCode, math: formatMathBlock });
  countWork('preprocessedChars', pre.text.length);
  const env: RenderEnv = { ctx, linkifiers, stash: pre.stash, listStarts: pre.listStarts, result };
  result.html = markdownEngine().render(pre.text, env).replace(/\n+$/, '');
  result.isMeMessage = content.startsWith('/me ') && !content.includes('\n') && result.html.startsWith('<p>') && result.html.endsWith('</p>');
  return result;
}

const USER_MENTION_RE = /@_?\*\*([^*]+)\*\*/g;
const GROUP_MENTION_RE = /@_?\*([^*]+)\*(?!\*)/g;
const STREAM_RE = /#\*\*([^*>]+)(?:>[^*]*)?\*\*/g;
const EMOJI_RE = /:([\p{L}\p{N}_+-]+):/gu;

// A cheap over-approximation of what a message refers to, so callers can preload it.
export function collectReferences(content: string): References {
  const userNames = new Set<string>();
  const userIds = new Set<number>();
  for (const m of content.matchAll(USER_MENTION_RE)) {
    const body = m[1] ?? '';
    const byId = /^(.*)\|(\d+)$/.exec(body);
    if (byId) userIds.add(Number(byId[2]));
    else userNames.add(body);
  }
  const groupNames = new Set<string>();
  for (const m of content.matchAll(GROUP_MENTION_RE)) if (!m[0].startsWith('@**') && !m[0].startsWith('@_**')) groupNames.add(m[1] ?? '');
  const streamNames = new Set<string>();
  for (const m of content.matchAll(STREAM_RE)) streamNames.add(m[1] ?? '');
  const emojiNames = new Set<string>();
  for (const m of content.matchAll(EMOJI_RE)) emojiNames.add(m[1] ?? '');
  return { userNames: [...userNames], userIds: [...userIds], groupNames: [...groupNames], streamNames: [...streamNames], streamIds: [], emojiNames: [...emojiNames] };
}

// A context that knows no users, groups, streams or custom emoji (descriptions, tests).
export function plainContext(realmUrl: string): MarkdownContext {
  return {
    realmUrl,
    userByName: () => undefined,
    userById: () => undefined,
    groupByName: () => undefined,
    streamByName: () => undefined,
    streamById: () => undefined,
    realmEmoji: () => undefined,
    linkifiers: [],
  };
}
