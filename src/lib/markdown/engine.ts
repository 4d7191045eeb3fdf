// The markdown-it instance for the reference dialect. Built once; all per-message data is in env.
import MarkdownIt from 'markdown-it';
import type { StateBlock, StateCore, Token } from 'markdown-it';
import { renderEnv } from './env.ts';
import { escapeHtml } from './html.ts';
import { installLinkPass } from './images.ts';
import { installInlineRules } from './inline.ts';
import { installMentions } from './mentions.ts';
import { PLACEHOLDER_RE } from './preprocess.ts';
import { installTextPass } from './textpass.ts';
import { sanitizeUrl } from './urls.ts';
import { countWork, countingWork } from './work.ts';

export const MAX_NESTING = 30;

function stashBlock(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  const pos = (state.bMarks[startLine] ?? 0) + (state.tShift[startLine] ?? 0);
  const max = state.eMarks[startLine] ?? 0;
  const m = PLACEHOLDER_RE.exec(state.src.slice(pos, max).trimEnd());
  if (!m) return false;
  if (silent) return true;
  const token = state.push('zstash', '', 0);
  token.meta = Number(m[1]);
  token.block = true;
  token.map = [startLine, startLine + 1];
  state.line = startLine + 1;
  return true;
}

const SPOILER_HTML = {
  open: '<div class="spoiler-block"><div class="spoiler-header">\n',
  middle: '</div><div class="spoiler-content" aria-hidden="true">\n',
  close: '</div></div>\n',
};

// The reference keeps a paragraph's trailing spaces; markdown-it trims them.
function keepTrailingSpaces(state: StateCore): void {
  const lines = state.src.split('\n');
  const { listStarts } = renderEnv(state.env);
  state.tokens.forEach((t, i) => {
    if (t.type === 'ordered_list_open' && t.map) {
      const start = listStarts.get(t.map[0]);
      if (start !== undefined) t.attrSet('start', String(start));
    }
    if (t.type !== 'inline' || state.tokens[i - 1]?.type !== 'paragraph_open' || !t.map || !t.children) return;
    const spaces = /[ \t]+$/.exec(lines[t.map[1] - 1] ?? '')?.[0];
    if (!spaces) return;
    const token = new state.Token('text', '', 0);
    token.content = spaces;
    t.children.push(token);
  });
}

// Work counting for tests (work.ts): every block and inline parse, nested ones included, goes
// through the parsers' tokenize methods.
function countParses(md: MarkdownIt): void {
  const block = md.block.tokenize.bind(md.block);
  md.block.tokenize = (state, startLine, endLine) => {
    block(state, startLine, endLine);
    // The lines this parse went through (a list item's parse is given the rest of its list).
    const last = Math.min(state.line, endLine) - 1;
    if (countingWork() && last >= startLine) countWork('blockChars', (state.eMarks[last] ?? 0) - (state.bMarks[startLine] ?? 0));
  };
  const inline = md.inline.tokenize.bind(md.inline);
  md.inline.tokenize = (state) => {
    if (countingWork()) {
      countWork('inlineChars', state.posMax - state.pos);
      countWork('inlineParses', 1);
    }
    inline(state);
  };
}

function buildEngine(): MarkdownIt {
  const md = new MarkdownIt('default', { html: false, linkify: false, breaks: true, typographer: false });
  // Deeply nested quotes and lists stop nesting here instead of growing the stack.
  md.set({ maxNesting: MAX_NESTING } as Parameters<MarkdownIt['set']>[0]);
  md.block.ruler.disable(['html_block', 'reference', 'lheading', 'fence']);
  md.block.ruler.before('table', 'zstash', stashBlock, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  md.validateLink = (url) => sanitizeUrl(url) !== undefined;
  md.normalizeLink = (url) => sanitizeUrl(url) ?? url;
  md.normalizeLinkText = (text) => text;
  installInlineRules(md);
  md.core.ruler.after('inline', 'z_trailing', keepTrailingSpaces);
  installMentions(md);
  installTextPass(md);
  installLinkPass(md);
  countParses(md);

  const rules = md.renderer.rules;
  rules.text = (tokens, idx) => escapeHtml(tokens[idx]?.content ?? '');
  rules.code_inline = (tokens, idx) => `<code>${escapeHtml(tokens[idx]?.content ?? '')}</code>`;
  rules['zhtml'] = (tokens, idx) => tokens[idx]?.content ?? '';
  rules['zstash'] = (tokens, idx, _opts, env) => {
    const item = renderEnv(env).stash[Number(tokens[idx]?.meta)];
    if (!item) return '';
    if (item.kind === 'spoiler') return SPOILER_HTML[item.part];
    return item.block ? item.html + '\n' : `<p>${item.html}</p>\n`;
  };
  // Indented code blocks get the same markup as fenced ones without a language.
  rules.code_block = (tokens, idx) => {
    const text = (tokens[idx]?.content ?? '').replace(/[ \t]+$/gm, '').replace(/^\n+|\n+$/g, '');
    return `<div class="codehilite"><pre><span></span><code>${escapeHtml(text, true).replace(/&#x27;/g, '&#39;')}\n</code></pre></div>\n`;
  };
  // A nested list follows its item's text directly, as in the reference.
  for (const name of ['bullet_list_open', 'ordered_list_open']) {
    rules[name] = (tokens: Token[], idx: number, options, _env, self) => {
      const html = self.renderToken(tokens, idx, options);
      return tokens[idx - 1]?.hidden ? html.replace(/^\n/, '') : html;
    };
  }
  return md;
}

let engine: MarkdownIt | undefined;

export function markdownEngine(): MarkdownIt {
  engine ??= buildEngine();
  return engine;
}
