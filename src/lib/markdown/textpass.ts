// Patterns found inside plain text after inline parsing, in the reference's order of precedence:
// auto-linked URLs, realm linkifiers, :emoji:, emoticons, Unicode emoji. Text inside links is
// left alone.
import type MarkdownIt from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';
import { EMOJI_NAME_RE, EMOTICON_RE, UNICODE_EMOJI_RE, emoticonEmoji, namedEmoji, unicodeEmoji } from './emoji.ts';
import { type RenderEnv, renderEnv } from './env.ts';
import { findLinkifierMatch } from './linkify.ts';
import { relativeToRealm, sanitizeUrl } from './urls.ts';
import { findWebLink } from './weblinks.ts';
import { countWork } from './work.ts';

type Segment = { text: string } | { html: string } | { href: string; label: string };

function isText(s: Segment): s is { text: string } {
  return 'text' in s;
}

// Applies `find` to every text segment; found pieces become segments, the rest stays text.
function splitText(
  segments: Segment[],
  find: (text: string, from: number, before: string) => { start: number; end: number; seg: Segment | undefined } | undefined,
  firstBefore: string,
): Segment[] {
  const out: Segment[] = [];
  let before = firstBefore;
  for (const seg of segments) {
    if (!isText(seg)) {
      out.push(seg);
      before = 'x';
      continue;
    }
    const text = seg.text;
    let pos = 0;
    let last = 0;
    while (pos < text.length) {
      const m = find(text, pos, before);
      if (!m) break;
      if (m.seg) {
        if (m.start > last) out.push({ text: text.slice(last, m.start) });
        out.push(m.seg);
        last = m.end;
      }
      pos = Math.max(m.end, pos + 1);
    }
    if (last < text.length) out.push({ text: text.slice(last) });
    before = 'x';
  }
  return out;
}

function regexFinder(re: RegExp, render: (m: RegExpExecArray) => string | undefined) {
  return (text: string, from: number) => {
    re.lastIndex = from;
    const m = re.exec(text);
    if (!m) return undefined;
    const html = render(m);
    // An unknown :name: is consumed as text, so it cannot pair with a later colon.
    return { start: m.index, end: m.index + m[0].length, seg: html === undefined ? undefined : { html } };
  };
}

function processText(text: string, before: string, env: RenderEnv): Segment[] {
  const { ctx } = env;
  countWork('textChars', text.length);
  let segs: Segment[] = [{ text }];
  segs = splitText(segs, (t, from, b) => {
    const link = findWebLink(t, from, from === 0 ? b : '');
    if (!link) return undefined;
    const href = link.email ? 'mailto:' + link.url : sanitizeUrl(link.url);
    return { start: link.start, end: link.end, seg: href === undefined ? undefined : { href: relativeToRealm(href, ctx.realmUrl), label: link.url } };
  }, before);
  for (const l of env.linkifiers) {
    segs = splitText(segs, (t, from) => {
      const m = findLinkifierMatch(l, t, from);
      if (!m) return undefined;
      const href = sanitizeUrl(m.url);
      return { start: m.start, end: m.end, seg: href === undefined ? undefined : { href: relativeToRealm(href, ctx.realmUrl), label: t.slice(m.start, m.end) } };
    }, before);
  }
  segs = splitText(segs, regexFinder(EMOJI_NAME_RE, (m) => namedEmoji(m[1] ?? '', ctx)), before);
  if (ctx.translateEmoticons) segs = splitText(segs, regexFinder(EMOTICON_RE, (m) => emoticonEmoji(m[0])), before);
  segs = splitText(segs, regexFinder(UNICODE_EMOJI_RE, (m) => unicodeEmoji(m[0])), before);
  return segs;
}

function charBefore(children: Token[], i: number): string {
  const prev = children[i - 1];
  if (!prev) return '';
  if (prev.type === 'text') return prev.content.slice(-1) || '';
  if (prev.type === 'softbreak' || prev.type === 'hardbreak') return '\n';
  return 'x'; // after markup, as after the reference's placeholders: no link may start here
}

function textPass(state: StateCore): void {
  const env = renderEnv(state.env);
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const children = block.children;
    const out: Token[] = [];
    let linkDepth = 0;
    children.forEach((t, i) => {
      if (t.type === 'link_open') linkDepth++;
      else if (t.type === 'link_close') linkDepth--;
      if (t.type !== 'text' || linkDepth > 0 || t.content === '') {
        out.push(t);
        return;
      }
      for (const seg of processText(t.content, charBefore(children, i), env)) {
        if (isText(seg)) {
          const tok = new state.Token('text', '', 0);
          tok.content = seg.text;
          out.push(tok);
        } else if ('html' in seg) {
          const tok = new state.Token('zhtml', '', 0);
          tok.content = seg.html;
          out.push(tok);
        } else {
          const open = new state.Token('link_open', 'a', 1);
          open.attrs = [['href', seg.href]];
          open.markup = 'autolink';
          const text = new state.Token('text', '', 0);
          text.content = seg.label;
          out.push(open, text, new state.Token('link_close', 'a', -1));
        }
      }
    });
    block.children = out;
  }
}

export function installTextPass(md: MarkdownIt): void {
  md.core.ruler.push('z_text', textPass);
}
