// Inline syntax of the reference dialect that differs from CommonMark: code spans keep their
// spaces, only `*` emphasizes and never across lines, `~~` strikes, link text stays literal,
// $$TeX$$ and <time:...>.
import type MarkdownIt from 'markdown-it';
import type { StateInline } from 'markdown-it';
import { isWordChar } from './env.ts';
import { escapeHtml, tag } from './html.ts';
import { formatInlineTex } from './math.ts';
import { parseTimeMention } from './time.ts';
import { countWork } from './work.ts';

type InlineRule = (state: StateInline, silent: boolean) => boolean;

function pushHtml(state: StateInline, html: string): void {
  state.push('zhtml', '', 0).content = html;
}

// Backtick runs of the inline source, indexed once per source so unmatched runs stay linear.
const runsCache = new WeakMap<StateInline, Map<number, number[]>>();

function backtickRuns(state: StateInline): Map<number, number[]> {
  let runs = runsCache.get(state);
  if (runs) return runs;
  runs = new Map();
  const src = state.src;
  for (let i = 0; i < src.length; i++) {
    if (src[i] !== '`') continue;
    let j = i;
    while (src[j] === '`') j++;
    const list = runs.get(j - i) ?? [];
    list.push(i);
    runs.set(j - i, list);
    i = j - 1;
  }
  runsCache.set(state, runs);
  return runs;
}

// The first run at or after `from` in an ascending list of positions (binary search: a message of
// thousands of same-length runs must not look through the list from its start for each one).
function firstAfter(list: number[], from: number): number | undefined {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] ?? 0) < from) lo = mid + 1;
    else hi = mid;
  }
  return list[lo];
}

// Where `ch` next occurs in the inline source at or after `from` (-1: nowhere). A found position
// is remembered per character, so rules asking again from anywhere before it (every '*' of a
// line asks for the line's end) do not scan the same text again.
const nextCache = new WeakMap<StateInline, Map<string, { from: number; at: number }>>();

function nextIndex(state: StateInline, ch: string, from: number): number {
  let cache = nextCache.get(state);
  if (!cache) {
    cache = new Map();
    nextCache.set(state, cache);
  }
  const known = cache.get(ch);
  if (known && from >= known.from && (known.at < 0 || from <= known.at)) return known.at;
  const at = state.src.indexOf(ch, from);
  countWork('scannedChars', (at < 0 ? state.src.length : at) - from);
  cache.set(ch, { from, at });
  return at;
}

const backticks: InlineRule = (state, silent) => {
  const start = state.pos;
  if (state.src[start] !== '`') return false;
  let p = start;
  while (p < state.posMax && state.src[p] === '`') p++;
  const len = p - start;
  const close = firstAfter(backtickRuns(state).get(len) ?? [], p + 1);
  if (close === undefined || close + len > state.posMax) {
    if (!silent) state.pending += state.src.slice(start, p);
    state.pos = p;
    return true;
  }
  if (!silent) {
    const token = state.push('code_inline', 'code', 0);
    token.markup = '`'.repeat(len);
    token.content = state.src.slice(p, close);
  }
  state.pos = close + len;
  return true;
};

function wrap(state: StateInline, silent: boolean, tags: string[], from: number, to: number, end: number): boolean {
  if (!silent) {
    const oldMax = state.posMax;
    for (const t of tags) state.push(`${t}_open`, t, 1).markup = '*';
    state.pos = from;
    state.posMax = to;
    state.md.inline.tokenize(state);
    for (const t of [...tags].reverse()) state.push(`${t}_close`, t, -1).markup = '*';
    state.posMax = oldMax;
  }
  state.pos = end;
  return true;
}

const emphasis: InlineRule = (state, silent) => {
  const src = state.src;
  const pos = state.pos;
  if (src[pos] !== '*') return false;
  const lineEnd = (() => {
    const nl = nextIndex(state, '\n', pos);
    return nl < 0 || nl > state.posMax ? state.posMax : nl;
  })();
  // ***strong emphasis***: no '*' inside, no space just inside the markers.
  if (src.startsWith('***', pos)) {
    const close = src.indexOf('*', pos + 3);
    if (close > pos + 3 && close + 3 <= lineEnd && src.startsWith('***', close)) {
      const inner = src.slice(pos + 3, close);
      if (!/^\s/.test(inner) && !/\s$/.test(inner) && !inner.includes('^')) return wrap(state, silent, ['strong', 'em'], pos + 3, close, close + 3);
    }
  }
  // **strong**: anything on the same line up to the next '**'.
  if (src.startsWith('**', pos)) {
    const close = src.indexOf('**', pos + 3);
    if (close > 0 && close + 2 <= lineEnd) return wrap(state, silent, ['strong'], pos + 2, close, close + 2);
  }
  // *emphasis*: up to the next '*', no space just inside the markers.
  const close = src.indexOf('*', pos + 1);
  if (close > pos + 1 && close < lineEnd) {
    const inner = src.slice(pos + 1, close);
    if (!/^\s/.test(inner) && !/\s$/.test(inner) && !inner.includes('^')) return wrap(state, silent, ['em'], pos + 1, close, close + 1);
  }
  return false;
};

const strikethrough: InlineRule = (state, silent) => {
  const src = state.src;
  const pos = state.pos;
  if (!src.startsWith('~~', pos) || src[pos - 1] === '~') return false;
  const close = src.indexOf('~', pos + 2);
  if (close <= pos + 2 || close + 2 > state.posMax || !src.startsWith('~~', close) || src[close + 2] === '~') return false;
  if (src.slice(pos + 2, close).includes('\n')) return false;
  if (!silent) {
    const oldMax = state.posMax;
    state.push('s_open', 'del', 1).markup = '~~';
    state.pos = pos + 2;
    state.posMax = close;
    state.md.inline.tokenize(state);
    state.push('s_close', 'del', -1).markup = '~~';
    state.posMax = oldMax;
  }
  state.pos = close + 2;
  return true;
};

const tex: InlineRule = (state, silent) => {
  const src = state.src;
  const pos = state.pos;
  if (!src.startsWith('$$', pos) || src[pos - 1] === '$' || isWordChar(src[pos - 1])) return false;
  let p = pos + 2;
  const first = src[p];
  if (first === undefined || first === '\n' || first === '_' || first === '$') return false;
  while (p < state.posMax) {
    const c = src[p];
    if (c === '\\' && src[p + 1] === '$') p += 2;
    else if (c === '$' || c === '\n') break;
    else p++;
  }
  if (!src.startsWith('$$', p) || p + 2 > state.posMax || src[p + 2] === '$' || isWordChar(src[p + 2])) return false;
  if (!silent) pushHtml(state, formatInlineTex(src.slice(pos + 2, p)).html);
  state.pos = p + 2;
  return true;
};

const timestamp: InlineRule = (state, silent) => {
  const src = state.src;
  const pos = state.pos;
  if (!src.startsWith('<time:', pos)) return false;
  const close = nextIndex(state, '>', pos + 6);
  if (close < 0 || close >= state.posMax) return false;
  if (!silent) {
    const text = src.slice(pos + 6, close);
    const iso = parseTimeMention(text);
    pushHtml(state, iso
      ? tag('time', { datetime: iso }, escapeHtml(text))
      : tag('span', { class: 'timestamp-error' }, escapeHtml(`Invalid time format: ${text}`)));
  }
  state.pos = close + 1;
  return true;
};

// Link text is literal in the reference dialect (no emphasis or mentions inside a link).
function literalLinkText(original: InlineRule): InlineRule {
  return (state, silent) => {
    const start = state.pos;
    const before = state.tokens.length;
    if (!original(state, silent)) return false;
    if (silent) return true;
    const open = state.tokens[before];
    const labelEnd = state.md.helpers.parseLinkLabel(state, start, true);
    if (!open || open.type !== 'link_open' || labelEnd < 0) return true;
    const label = state.src.slice(start + 1, labelEnd);
    const close = state.tokens.pop();
    state.tokens.length = before + 1;
    const text = state.push('text', '', 0);
    text.content = label.trim() === '' ? (open.attrGet('href') ?? '') : label;
    if (close) state.tokens.push(close);
    return true;
  };
}

export function installInlineRules(md: MarkdownIt): void {
  const inline = md.inline.ruler;
  inline.disable(['html_inline', 'autolink', 'linkify', 'image', 'emphasis', 'strikethrough', 'backticks']);
  md.inline.ruler2.disable(['emphasis', 'strikethrough']);
  inline.before('backticks', 'z_backticks', backticks);
  inline.before('emphasis', 'z_emphasis', emphasis);
  inline.before('emphasis', 'z_strikethrough', strikethrough);
  inline.before('link', 'z_tex', tex);
  inline.before('link', 'z_timestamp', timestamp);
  // markdown-it has no public getter for a rule; its rule list is read once here.
  const rules = (inline as unknown as { __rules__: { name: string; fn: InlineRule }[] }).__rules__;
  const link = rules.find((r) => r.name === 'link');
  if (link) inline.at('link', literalLinkText(link.fn));
}
