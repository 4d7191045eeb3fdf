// Word-level differences between two texts (message versions in the edit history), by Myers'
// O((N+M)D) algorithm over words, spaces and punctuation, after the common start and end are
// set aside. Past MAX_EDITS differences the whole texts are shown as removed and added.

export interface DiffPart {
  op: 'same' | 'removed' | 'added';
  text: string;
}

const MAX_EDITS = 2000;

export function tokens(text: string): string[] {
  return text.match(/\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? [];
}

function push(parts: DiffPart[], op: DiffPart['op'], text: string): void {
  if (!text) return;
  const last = parts.at(-1);
  if (last?.op === op) last.text += text;
  else parts.push({ op, text });
}

/** The shortest list of removed and added runs of words that turns `a` into `b`. */
export function diffWords(before: string, after: string): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const middle = middleOps(a.slice(start, endA), b.slice(start, endB));
  const parts: DiffPart[] = [];
  push(parts, 'same', a.slice(0, start).join(''));
  for (const [op, text] of middle) push(parts, op, text);
  push(parts, 'same', a.slice(endA).join(''));
  return parts;
}

function middleOps(a: string[], b: string[]): [DiffPart['op'], string][] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return [['removed', a.join('')], ['added', b.join('')]];
  const max = Math.min(n + m, MAX_EDITS);
  const off = max + 1;
  let v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v);
    v = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[k - 1 + off]! < v[k + 1 + off]!) ? v[k + 1 + off]! : v[k - 1 + off]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[k + off] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, off);
    }
  }
  return [['removed', a.join('')], ['added', b.join('')]];
}

/** Walks the saved frontiers back from the end; trace[d] is the frontier before step d. */
function backtrack(a: string[], b: string[], trace: Int32Array[], off: number): [DiffPart['op'], string][] {
  const out: [DiffPart['op'], string][] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d > 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && v[k - 1 + off]! < v[k + 1 + off]!) ? k + 1 : k - 1;
    const prevX = v[prevK + off]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push(['same', a[--x]!]);
      y--;
    }
    if (prevK === k + 1) out.push(['added', b[prevY]!]);
    else out.push(['removed', a[prevX]!]);
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    out.push(['same', a[--x]!]);
    y--;
  }
  return out.reverse();
}
