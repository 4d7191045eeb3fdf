// Validation of linkifier patterns and URL templates. The renderer runs patterns as JavaScript
// regular expressions (backtracking), so a pattern is accepted only if it is valid for both RE2
// (the reference's engine, which clients may also use) and JavaScript, and has no structure
// that makes backtracking exponential: a repeated group whose body can match in more than one
// way (an inner variable quantifier or an alternation), or a huge counted repeat.
import { Worker } from 'node:worker_threads';
import { badRequest } from './errors.ts';
import { ADMIN_LIMITS } from './limits.ts';

interface Frame {
  /** The body holds a quantifier whose min and max differ, or an alternation. */
  ambiguous: boolean;
}

const invalid = (why: string) => badRequest(`Invalid linkifier pattern: ${why}`);

/** Reads a quantifier at `i`; returns its length and bounds, or null when there is none. */
function quantifierAt(s: string, i: number): { len: number; min: number; max: number } | null {
  const c = s[i];
  let q: { len: number; min: number; max: number } | null = null;
  if (c === '*') q = { len: 1, min: 0, max: Infinity };
  else if (c === '+') q = { len: 1, min: 1, max: Infinity };
  else if (c === '?') q = { len: 1, min: 0, max: 1 };
  else if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(i));
    if (m) {
      const min = Number(m[1]);
      const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      if (min > ADMIN_LIMITS.maxLinkifierRepeat || (max !== Infinity && max > ADMIN_LIMITS.maxLinkifierRepeat)) {
        throw invalid(`repeat counts are limited to ${ADMIN_LIMITS.maxLinkifierRepeat}`);
      }
      if (max < min) throw invalid('bad repeat range');
      q = { len: m[0].length, min, max };
    }
  }
  if (q && (s[i + q.len] === '?' || s[i + q.len] === '+')) q.len++; // lazy or possessive marker
  return q;
}

/** Checks the pattern and returns the names of its named groups. */
export function checkLinkifierPattern(pattern: string): string[] {
  if (pattern.trim() === '') throw invalid('it is empty');
  if (pattern.length > ADMIN_LIMITS.maxLinkifierPatternLength) throw invalid(`it is longer than ${ADMIN_LIMITS.maxLinkifierPatternLength} characters`);
  const names: string[] = [];
  const stack: Frame[] = [{ ambiguous: false }];
  // What the last atom was, for the quantifier that may follow it.
  let last: { group: Frame | null } | null = null;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    const top = stack[stack.length - 1]!;
    if (c === '\\') {
      const n = pattern[i + 1];
      if (n === undefined) throw invalid('it ends with a backslash');
      if (/[1-9]/.test(n) || n === 'k') throw invalid('backreferences are not supported');
      i += 2;
      last = { group: null };
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      if (j >= pattern.length) throw invalid('unterminated character class');
      i = j + 1;
      last = { group: null };
      continue;
    }
    if (c === '(') {
      const rest = pattern.slice(i);
      let len = 1;
      if (rest.startsWith('(?')) {
        const named = /^\(\?P?<([^>]*)>/.exec(rest);
        if (rest.startsWith('(?:')) len = 3;
        else if (named && !rest.startsWith('(?<=') && !rest.startsWith('(?<!')) {
          const name = named[1]!;
          if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw invalid(`bad group name '${name}'`);
          if (names.includes(name)) throw invalid(`group name '${name}' is used twice`);
          names.push(name);
          len = named[0].length;
        } else if (/^\(\?<?[=!]/.test(rest)) throw invalid('lookaround assertions are not supported');
        else throw invalid('inline flags and other group extensions are not supported');
      }
      stack.push({ ambiguous: false });
      i += len;
      last = null;
      continue;
    }
    if (c === ')') {
      if (stack.length === 1) throw invalid('unbalanced parenthesis');
      const frame = stack.pop()!;
      if (frame.ambiguous) stack[stack.length - 1]!.ambiguous = true;
      i++;
      last = { group: frame };
      continue;
    }
    if (c === '|') {
      top.ambiguous = true;
      i++;
      last = null;
      continue;
    }
    const q = quantifierAt(pattern, i);
    if (q) {
      if (!last) throw invalid('nothing to repeat');
      if (last.group?.ambiguous && q.max > 1) throw invalid('a repeated group must match in only one way (catastrophic backtracking)');
      if (q.min !== q.max) top.ambiguous = true;
      i += q.len;
      last = null;
      continue;
    }
    i++;
    last = { group: null };
  }
  if (stack.length !== 1) throw invalid('unbalanced parenthesis');
  try {
    // The renderer's dialect: Python-style named groups become JavaScript's, Unicode mode.
    new RegExp(pattern.replace(/\(\?P</g, '(?<'), 'u');
  } catch (err) {
    throw invalid(err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : 'not a regular expression');
  }
  return names;
}

const EXPRESSION_RE = /\{([+#]?)([A-Za-z0-9_]+(?:,[A-Za-z0-9_]+)*)\}/g;

/** An RFC 6570 template of an http(s) URL whose variables are groups of the pattern. */
export function checkUrlTemplate(template: string, groupNames: readonly string[]): string {
  const t = template.trim();
  if (t.length === 0 || t.length > ADMIN_LIMITS.maxLinkifierTemplateLength) throw badRequest('Invalid URL template.');
  const bare = t.replace(EXPRESSION_RE, 'x');
  if (/[{}\s]/.test(bare)) throw badRequest('Invalid URL template.');
  let url: URL;
  try {
    url = new URL(bare);
  } catch {
    throw badRequest('Invalid URL template.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('Invalid URL template.');
  for (const m of t.matchAll(EXPRESSION_RE)) {
    for (const name of m[2]!.split(',')) {
      if (!groupNames.includes(name)) throw badRequest(`Group "${name}" in URL template is not present in linkifier pattern.`);
    }
  }
  return t;
}

// Runs in a worker so that a runaway pattern can be stopped: scans each input the way the
// renderer scans message text (every start position, global regular expression).
const PROBE_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const re = new RegExp(workerData.source, workerData.flags);
for (const text of workerData.inputs) {
  let pos = 0;
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) break;
    pos = Math.max(m.index + m[0].length, pos + 1);
  }
}
parentPort.postMessage('done');
`;

/** Inputs that make backtracking patterns slow: long runs of one character, then a mismatch. */
function probeInputs(pattern: string): string[] {
  const chars = new Set(['a', 'Z', '0', '_', '-', ' ', '.', '/', '#', ':', '\u00e9']);
  for (const ch of pattern.replace(/\\./g, '')) if (!/[()[\]{}*+?|^$\\]/.test(ch)) chars.add(ch);
  const n = ADMIN_LIMITS.linkifierProbeLength;
  return [...chars].flatMap((c) => [c.repeat(n), c.repeat(n) + '\u0001', ' ' + c.repeat(n) + '!']);
}

/**
 * Measures the pattern as the renderer compiles it, on inputs that trigger polynomial or
 * exponential backtracking the structural check cannot see (such as `\d+\d+\d+`).
 */
export async function probeLinkifierPattern(compiled: RegExp): Promise<void> {
  const worker = new Worker(PROBE_SOURCE, {
    eval: true,
    workerData: { source: compiled.source, flags: compiled.flags, inputs: probeInputs(compiled.source) },
    resourceLimits: { maxOldGenerationSizeMb: 64 },
  });
  const finished = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ADMIN_LIMITS.linkifierProbeMillis);
    worker.once('message', () => {
      clearTimeout(timer);
      resolve(true);
    });
    worker.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  await worker.terminate();
  if (!finished) throw invalid('matching it takes too long (catastrophic backtracking)');
}
