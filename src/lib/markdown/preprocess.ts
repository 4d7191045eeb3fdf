import { countWork } from './work.ts';

// Line-level passes that run before markdown-it, in the order of the reference dialect:
// hanging lists get a blank line, fenced blocks are resolved (code and math become stash
// placeholders, quotes become "> " lines, spoilers become placeholders around their content),
// then list indentation and quote laziness are rewritten so CommonMark nests like the reference.

export type Stashed =
  | { kind: 'html'; html: string; block: boolean }
  | { kind: 'spoiler'; part: 'open' | 'middle' | 'close' };

export interface Preprocessed {
  text: string;
  stash: Stashed[];
  // Line (in `text`) of a nested ordered list's first item -> its number. CommonMark lets only a
  // list starting at 1 interrupt a paragraph, so such items are written as "1." and renumbered.
  listStarts: Map<number, number>;
}

export interface FenceFormatters {
  code(lang: string | undefined, text: string): string;
  math(text: string): string;
}

// Placeholder lines are a control character, the stash index, and the same character again.
export const PLACEHOLDER_CHAR = '\u0001';
// eslint-disable-next-line no-control-regex -- the control character is the point; preprocess strips it from input
export const PLACEHOLDER_RE = /^\u0001(\d+)\u0001$/;

const FENCE_RE = /^(~{3,}|`{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+,\-./#]+)[ ]*([^ ~`][^~`]*)?\}?)?$/;
const LI_RE = /^[ ]*([*+-]|\d\.)[ ]+(.*)/;

// A fenced quote nests its lines one "> " deeper. Deeper than markdown-it's nesting limit nothing
// renders (the engine drops what lies past `maxNesting`), so a line keeps at most this many
// prefixes: the lines markdown-it reads are the same, and the text stays linear in the input.
export const MAX_QUOTE_PREFIXES = 32;

// What a handler collects: lines and the finished blocks of the handlers nested in it, kept as
// parts (not copied into the parent's lines) so closing a fence costs the same at any depth.
type Part = string | Block;
interface Block {
  // "> " levels this block's lines get (1 for a quote, 0 otherwise).
  quote: number;
  parts: Part[];
}

interface Handler {
  kind: 'outer' | 'code' | 'quote' | 'spoiler' | 'math';
  fence: string;
  lang: string | undefined;
  header: string | undefined;
  output: Part[];
  lines: Part[];
}

class FencePass {
  readonly stash: Stashed[] = [];
  private readonly handlers: Handler[] = [];
  constructor(private readonly fmt: FenceFormatters) {}

  placeholder(item: Stashed): string {
    this.stash.push(item);
    return `${PLACEHOLDER_CHAR}${this.stash.length - 1}${PLACEHOLDER_CHAR}`;
  }

  run(lines: string[]): string[] {
    const output: Part[] = [];
    this.handlers.push({ kind: 'outer', fence: '', lang: undefined, header: undefined, output, lines: [] });
    for (const line of lines) this.handleLine(line);
    while (this.handlers.length > 0) this.done();
    const flat = flatten(output);
    if (flat.length > 2 && flat[flat.length - 2] !== '') flat.push('');
    return flat;
  }

  private top(): Handler {
    const h = this.handlers[this.handlers.length - 1];
    if (!h) throw new Error('fence handler stack is empty');
    return h;
  }

  private handleLine(line: string): void {
    const h = this.top();
    if (h.kind === 'outer') {
      this.checkForNewFence(h.output, line);
    } else if (line.trimEnd() === h.fence) {
      this.done();
    } else if (h.kind === 'quote' || h.kind === 'spoiler') {
      this.checkForNewFence(h.lines, line);
    } else {
      h.lines.push(line.trimEnd());
    }
  }

  private checkForNewFence(target: Part[], line: string): void {
    const m = FENCE_RE.exec(line);
    if (!m) {
      target.push(line);
      return;
    }
    const lang = m[2]?.toLowerCase();
    const kind = lang === 'quote' || lang === 'quoted' ? 'quote' : lang === 'math' ? 'math' : lang === 'spoiler' ? 'spoiler' : 'code';
    this.handlers.push({ kind, fence: m[1] ?? '', lang, header: m[3], output: target, lines: [] });
  }

  private done(): void {
    const h = this.top();
    if (h.kind !== 'outer' && h.lines.length > 0) {
      let out: Part[];
      switch (h.kind) {
        case 'code':
          // Code and math handlers only ever collect plain lines.
          out = [this.placeholder({ kind: 'html', html: this.fmt.code(h.lang, h.lines.join('\n')), block: true })];
          break;
        case 'math':
          out = [this.placeholder({ kind: 'html', html: this.fmt.math(h.lines.join('\n')), block: false })];
          break;
        case 'quote':
          out = [{ quote: 1, parts: h.lines }];
          break;
        case 'spoiler': {
          out = [this.placeholder({ kind: 'spoiler', part: 'open' }), ''];
          if (h.header !== undefined) out.push(h.header, '');
          out.push(this.placeholder({ kind: 'spoiler', part: 'middle' }), '', { quote: 0, parts: h.lines }, '', this.placeholder({ kind: 'spoiler', part: 'close' }));
          break;
        }
      }
      h.output.push('', ...out, '');
      countWork('fenceParts', out.length + 2);
    }
    this.handlers.pop();
  }
}

// The lines of nested parts, each prefixed by "> " once per enclosing quote (at most
// MAX_QUOTE_PREFIXES times). Iterative: fences may nest a thousand deep.
function flatten(parts: Part[]): string[] {
  const out: string[] = [];
  const prefixes = ['', '> '];
  const stack: { parts: Part[]; i: number; depth: number }[] = [{ parts, i: 0, depth: 0 }];
  for (let top = stack[0]; top !== undefined; top = stack[stack.length - 1]) {
    const part = top.parts[top.i++];
    if (part === undefined) {
      stack.pop();
    } else if (typeof part === 'string') {
      out.push((prefixes[top.depth] ?? '') + part);
    } else {
      const depth = Math.min(top.depth + part.quote, MAX_QUOTE_PREFIXES);
      while (prefixes.length <= depth) prefixes.push('> '.repeat(prefixes.length));
      stack.push({ parts: part.parts, i: 0, depth });
    }
  }
  return out;
}

// A list that directly follows a paragraph line (or a list of the other kind) gets a blank line.
function separateHangingLists(lines: string[]): string[] {
  const out: string[] = [];
  const open: { fence: string; isCode: boolean }[] = [];
  let codeFencesOpen = 0; // how many of `open` are code, so a fence line costs the same at any depth
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    out.push(line);
    const next = lines[i + 1];
    if (next === undefined) break;
    const m = FENCE_RE.exec(line);
    if (m) {
      const fence = m[1] ?? '';
      const lang = m[2];
      const last = open[open.length - 1];
      if (!lang && last !== undefined && last.fence === fence) {
        open.pop();
        if (last.isCode) codeFencesOpen--;
      } else {
        const isCode = lang !== 'quote' && lang !== 'quoted';
        open.push({ fence, isCode });
        if (isCode) codeFencesOpen++;
      }
    }
    const inCode = codeFencesOpen > 0;
    const li1 = LI_RE.exec(line);
    const li2 = LI_RE.exec(next);
    if (!inCode && line !== '' && li2 && (!li1 || (li1[1]?.length === 1) !== (li2[1]?.length === 1))) out.push('');
  }
  return out;
}

const ITEM_RE = /^( *)([*+-]|\d{1,9}\.)( +)(.*)$/;
const HR_RE = /^ {0,3}([-*_])( *\1){2,} *$/;

interface OpenItem {
  origIndent: number;
  newIndent: number;
  newContent: number;
}

// The reference nests a list item under the previous one when it is indented by two or more
// spaces; CommonMark needs the parent's content column. Rewrite indentation to that column.
function reindentLists(lines: string[], listStarts: Map<number, number>): string[] {
  const out: string[] = [];
  let stack: OpenItem[] = [];
  let prevBlank = true;
  for (const line of lines) {
    if (line.trim() === '') {
      out.push(line);
      prevBlank = true;
      continue;
    }
    const indent = line.length - line.trimStart().length;
    const m = HR_RE.test(line) ? null : ITEM_RE.exec(line);
    if (m) {
      if (stack.length === 0 && indent >= 4) {
        out.push(line); // an indented code block, not a list
        prevBlank = false;
        continue;
      }
      let newIndent = 0;
      let placed = false;
      let child = false;
      while (stack.length > 0) {
        const top = stack[stack.length - 1] as OpenItem;
        if (indent >= top.origIndent + 2) {
          newIndent = top.newContent;
          placed = true;
          child = true;
          break;
        }
        stack.pop();
        if (indent >= top.origIndent) {
          newIndent = top.newIndent;
          placed = true;
          break;
        }
      }
      if (!placed) newIndent = stack.length === 0 ? Math.min(indent, 3) : 0;
      let marker = /^[*+-]$/.test(m[2] ?? '') ? '*' : (m[2] ?? '*');
      const number = parseInt(marker, 10);
      if (child && !prevBlank && number > 1) {
        listStarts.set(out.length, number);
        marker = '1.';
      }
      const item: OpenItem = { origIndent: indent, newIndent, newContent: newIndent + marker.length + 1 };
      stack.push(item);
      out.push(' '.repeat(newIndent) + marker + ' ' + (m[4] ?? ''));
      prevBlank = false;
      continue;
    }
    if (stack.length > 0 && prevBlank) {
      const base = stack[0] as OpenItem;
      if (indent < base.origIndent + 2) {
        stack = [];
      } else {
        while (stack.length > 1 && indent < (stack[stack.length - 1] as OpenItem).origIndent + 2) stack.pop();
        const owner = stack[stack.length - 1] as OpenItem;
        const extra = indent - owner.origIndent - 2;
        out.push(' '.repeat(owner.newContent + extra) + line.trimStart());
        prevBlank = false;
        continue;
      }
    }
    out.push(line);
    prevBlank = false;
  }
  return out;
}

const QUOTE_LINE_RE = /^ {0,3}>/;
const EMPTY_QUOTE_RE = /^(?:\s*>)+\s*$/;

// In the reference a quote takes its whole block of consecutive lines, and a quote of empty
// lines only is plain text.
function fixQuoteBlocks(lines: string[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    if ((lines[i] ?? '').trim() === '') {
      out.push(lines[i] ?? '');
      i++;
      continue;
    }
    let j = i;
    while (j < lines.length && (lines[j] ?? '').trim() !== '') j++;
    const chunk = lines.slice(i, j);
    if (chunk.every((l) => EMPTY_QUOTE_RE.test(l))) {
      for (const l of chunk) {
        const k = l.lastIndexOf('>');
        out.push(l.slice(0, k) + '\\' + l.slice(k));
      }
    } else {
      let inQuote = false;
      for (const l of chunk) {
        if (QUOTE_LINE_RE.test(l)) inQuote = true;
        else if (inQuote && !l.startsWith(PLACEHOLDER_CHAR)) {
          out.push('> ' + l);
          continue;
        }
        out.push(l);
      }
    }
    i = j;
  }
  return out;
}

export function preprocess(source: string, fmt: FenceFormatters): Preprocessed {
  // Input never carries the placeholder character, so users cannot forge a placeholder.
  const lines = source.replaceAll(PLACEHOLDER_CHAR, '').replace(/\r\n?/g, '\n').split('\n');
  const pass = new FencePass(fmt);
  let out = pass.run(separateHangingLists(lines));
  const listStarts = new Map<number, number>();
  out = reindentLists(out, listStarts);
  out = fixQuoteBlocks(out);
  return { text: out.join('\n'), stash: pass.stash, listStarts };
}
