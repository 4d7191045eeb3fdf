// Stand-ins until the webkit modules (narrow.ts, time.ts) land: the simplest behaviour that
// keeps the app usable. Replaced by those modules' call sites after rebasing.
import type { Narrow, Term } from '../store/types.ts';

export interface Names {
  stream(id: number): string;
  streamId(name: string): number | undefined;
  user(id: number): string;
}

const enc = (s: string) => encodeURIComponent(s).replace(/\./g, '%2E').replace(/%/g, '.');
const dec = (s: string) => {
  try {
    return decodeURIComponent(s.replace(/\./g, '%'));
  } catch {
    return s;
  }
};
const slug = (id: number, name: string) => `${id}-${enc(name.replace(/\s+/g, '-'))}`;

export function narrowToHash(narrow: Narrow, names: Names): string {
  if (narrow.length === 0) return '#all_messages';
  const parts: string[] = ['narrow'];
  for (const t of narrow) {
    const op = (t.negated ? '-' : '') + t.operator;
    switch (t.operator) {
      case 'stream':
        parts.push((t.negated ? '-' : '') + 'channel', slug(Number(t.operand), names.stream(Number(t.operand))));
        break;
      case 'dm': {
        const ids = Array.isArray(t.operand) ? t.operand : [Number(t.operand)];
        parts.push(op, `${ids.join(',')}-${ids.length > 1 ? 'group' : 'dm'}`);
        break;
      }
      case 'sender':
        parts.push(op, slug(Number(t.operand), names.user(Number(t.operand))));
        break;
      default:
        parts.push(op, enc(String(t.operand)));
    }
  }
  return '#' + parts.join('/');
}

export function hashToNarrow(hash: string): Narrow | null {
  const h = hash.replace(/^#/, '');
  if (h === '' || h === 'all_messages' || h === 'feed') return [];
  const parts = h.split('/');
  if (parts[0] !== 'narrow') return null;
  const narrow: Narrow = [];
  for (let i = 1; i + 1 < parts.length; i += 2) {
    let op = parts[i]!;
    const negated = op.startsWith('-');
    if (negated) op = op.slice(1);
    const raw = parts[i + 1]!;
    let operand: Term['operand'];
    if (op === 'channel' || op === 'stream' || op === 'sender') {
      operand = Number(raw.split('-')[0]);
      if (op === 'channel') op = 'stream';
    } else if (op === 'dm' || op === 'pm-with') {
      operand = raw.split('-')[0]!.split(',').map(Number);
      op = 'dm';
    } else if (op === 'near' || op === 'id') {
      operand = Number(raw);
    } else operand = dec(raw);
    narrow.push(negated ? { operator: op, operand, negated } : { operator: op, operand });
  }
  return narrow;
}

const OPERATORS = new Set(['channel', 'stream', 'topic', 'sender', 'dm', 'is', 'has', 'id', 'near', 'dm-including']);

/** The search box's text as a narrow: `op:operand` terms and keywords. */
export function parseSearch(text: string, names: Names): Narrow {
  const narrow: Narrow = [];
  const words: string[] = [];
  for (const token of text.match(/(?:[^\s"]+|"[^"]*")+/g) ?? []) {
    const m = /^(-?)([a-z-]+):(.+)$/.exec(token);
    if (m && OPERATORS.has(m[2]!)) {
      const negated = m[1] === '-';
      let op = m[2]!;
      const value = m[3]!.replace(/^"|"$/g, '');
      let operand: Term['operand'] = value;
      if (op === 'stream' || op === 'channel') {
        op = 'stream';
        operand = names.streamId(value) ?? value;
      }
      narrow.push(negated ? { operator: op, operand, negated } : { operator: op, operand });
    } else words.push(token);
  }
  if (words.length) narrow.push({ operator: 'search', operand: words.join(' ') });
  return narrow;
}

export function narrowToSearch(narrow: Narrow, names: Names): string {
  return narrow
    .map((t) => {
      const neg = t.negated ? '-' : '';
      const op = t.operator;
      let operand = String(t.operand);
      if (op === 'search') return operand;
      if (op === 'stream') operand = names.stream(Number(t.operand));
      if (op === 'sender') operand = names.user(Number(t.operand));
      if (op === 'dm') operand = (Array.isArray(t.operand) ? t.operand : [t.operand]).map((id) => names.user(Number(id))).join(',');
      return `${neg}${op}:${/\s/.test(operand) ? `"${operand}"` : operand}`;
    })
    .join(' ');
}

export function formatTime(ts: number, twentyFour = false): string {
  return new Date(ts * 1000).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit', hour12: !twentyFour });
}

export function formatDate(ts: number): string {
  const d = new Date(ts * 1000);
  const today = new Date();
  const yesterday = new Date(Date.now() - 86_400_000);
  if (d.toDateString() === today.toDateString()) return 'Today';
  if (d.toDateString() === yesterday.toDateString()) return 'Yesterday';
  return d.toLocaleDateString([], { weekday: 'short', month: 'short', day: 'numeric', year: d.getFullYear() === today.getFullYear() ? undefined : 'numeric' });
}

export const sameDay = (a: number, b: number): boolean => new Date(a * 1000).toDateString() === new Date(b * 1000).toDateString();
