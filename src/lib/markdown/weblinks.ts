// Auto-linked URLs, following the reference's web-link rules: scheme URLs, bare domains with a
// known top-level domain, e-mail addresses; parentheses must balance (7 levels at most); trailing
// punctuation stays outside; the URL must start after whitespace or one of ' " ( , : <.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// Short names that are far more often file extensions than domains.
const FALSE_POSITIVES = new Set(['java', 'md', 'mov', 'py', 'zip']);
const TLDS = new Set((require('tlds') as string[]).filter((t) => !FALSE_POSITIVES.has(t)));
const MAX_TLD = Math.max(...[...TLDS].map((t) => t.length));

const MAX_PATH = 2048; // keeps the scan linear on hostile input
const MAX_PARENS = 7;
const TRAILING = new Set([...`!:;?),.'">`]);
const BEFORE = new Set([...`'"(,:<`]);
const WORD_RE = /[\p{L}\p{N}_]/u;
const HOST_RE = /[\p{L}\p{N}_.:@-]/u;
const SPACE_RE = /\s/u;

export interface WebLink {
  start: number;
  end: number;
  url: string;
  email: boolean;
}

function isWord(c: string | undefined): boolean {
  return c !== undefined && WORD_RE.test(c);
}

// ok[p]: from p on, only trailing punctuation stands before whitespace or the end.
function endTable(text: string): Uint8Array {
  const ok = new Uint8Array(text.length + 1);
  ok[text.length] = 1;
  for (let p = text.length - 1; p >= 0; p--) {
    const c = text[p] as string;
    ok[p] = SPACE_RE.test(c) || (TRAILING.has(c) && ok[p + 1] === 1) ? 1 : 0;
  }
  return ok;
}

// The shortest balanced path after the '/' at `slash` that ends where `ok` holds.
function pathEnd(text: string, slash: number, ok: Uint8Array): number | undefined {
  let depth = 0;
  const limit = Math.min(text.length, slash + 1 + MAX_PATH);
  for (let p = slash + 1; ; p++) {
    if (depth === 0 && ok[p] === 1) return p;
    if (p >= limit) return undefined;
    const c = text[p] as string;
    if (SPACE_RE.test(c) || c === '"') return undefined;
    if (c === '(') {
      if (++depth > MAX_PARENS) return undefined;
    } else if (c === ')') {
      if (--depth < 0) return undefined;
    }
  }
}

function afterHost(text: string, e: number, ok: Uint8Array): number | undefined {
  if (text[e] === '/') return pathEnd(text, e, ok);
  return ok[e] === 1 ? e : undefined;
}

function schemeLink(text: string, i: number, ok: Uint8Array): number | undefined {
  const rest = text.startsWith('http://', i) ? 7 : text.startsWith('https://', i) ? 8 : 0;
  if (rest === 0) return undefined;
  const hostStart = i + rest;
  for (let e = hostStart + 1; e <= text.length && HOST_RE.test(text[e - 1] as string); e++) {
    const end = afterHost(text, e, ok);
    if (end !== undefined) return end;
  }
  return undefined;
}

function domainLink(text: string, i: number, ok: Uint8Array): number | undefined {
  const dots: number[] = [];
  let p = i;
  for (;;) {
    const labelStart = p;
    while (p < text.length && (isWord(text[p]) || text[p] === '-')) p++;
    if (p === labelStart || text[p] !== '.') break;
    dots.push(p);
    p++;
  }
  for (let d = dots.length - 1; d >= 0; d--) {
    const tldStart = (dots[d] as number) + 1;
    let runEnd = tldStart;
    while (runEnd < text.length && runEnd - tldStart < MAX_TLD && isWord(text[runEnd])) runEnd++;
    for (let e = runEnd; e > tldStart; e--) {
      if (!TLDS.has(text.slice(tldStart, e))) continue;
      const end = afterHost(text, e, ok);
      if (end !== undefined) return end;
    }
  }
  return undefined;
}

function emailLink(text: string, i: number, ok: Uint8Array): number | undefined {
  let p = i;
  while (p < text.length && (isWord(text[p]) || text[p] === '.' || text[p] === '-')) p++;
  if (p === i || text[p] !== '@') return undefined;
  const domStart = p + 1;
  let q = domStart;
  while (q < text.length && (isWord(text[q]) || text[q] === '.' || text[q] === '-')) q++;
  for (let dot = text.lastIndexOf('.', q - 1); dot > domStart; dot = text.lastIndexOf('.', dot - 1)) {
    let e = dot + 1;
    while (e < q && isWord(text[e])) e++;
    if (e > dot + 1 && ok[e] === 1) return e;
  }
  return undefined;
}

// Repeated searches through one text reuse its table, keeping a whole text's scan linear.
let lastTable: { text: string; ok: Uint8Array } | undefined;

// `before` is the character preceding text[0] in the message ('' at the start of a block).
export function findWebLink(text: string, from = 0, before = ''): WebLink | undefined {
  let ok = lastTable?.text === text ? lastTable.ok : undefined;
  for (let i = from; i < text.length; i++) {
    const prev = i === 0 ? before : text[i - 1];
    if (prev !== '' && prev !== undefined && !SPACE_RE.test(prev) && !BEFORE.has(prev)) continue;
    const c = text[i];
    if (!isWord(c) && c !== '.' && c !== '-') continue;
    if (!ok) {
      ok = endTable(text);
      lastTable = { text, ok };
    }
    const end = schemeLink(text, i, ok) ?? domainLink(text, i, ok);
    if (end !== undefined) return { start: i, end, url: text.slice(i, end), email: false };
    const mail = emailLink(text, i, ok);
    if (mail !== undefined) return { start: i, end: mail, url: text.slice(i, mail), email: true };
  }
  return undefined;
}
