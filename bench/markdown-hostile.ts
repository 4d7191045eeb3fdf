// CPU time to render hostile message shapes at half and at the full message length limit; a
// ratio near 2 is linear, near 4 quadratic, near 8 cubic.
// Run: npx tsx bench/markdown-hostile.ts [shape-substring] (LENGTH=n for another size)
import { renderMarkdown, plainContext } from '../src/lib/markdown/index.ts';
import { LIMITS } from '../src/lib/limits.ts';
import type { MarkdownContext } from '../src/lib/markdown/types.ts';
import { measureRenderWork, totalWork } from '../src/lib/markdown/work.ts';
import { HOSTILE_SHAPES } from '../test/helpers/markdown-shapes.ts';

const ctx: MarkdownContext = {
  ...plainContext('https://chat.example'),
  linkifiers: [{ id: 1, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://tracker.example/{id}' }],
  userByName: (n) => (n === 'x' ? { id: 1, fullName: 'x', email: 'x@example.com', isActive: true } : undefined),
};

function cpuMs(input: string): number {
  const start = process.cpuUsage();
  renderMarkdown(input, ctx);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

const only = process.argv[2];
const max = Number(process.env.LENGTH ?? LIMITS.maxMessageLength);
for (let i = 0; i < 50; i++) renderMarkdown('warm *up* `x` https://a.com :smile:', ctx);
console.log(`shape: CPU ms at ${max / 2} / ${max} characters (median of 3), ratio; counted work per input character at ${max}`);
for (const [name, make] of HOSTILE_SHAPES) {
  if (only && !name.includes(only)) continue;
  const half = make(max / 2);
  const full = make(max);
  const a = median([cpuMs(half), cpuMs(half), cpuMs(half)]);
  const b = median([cpuMs(full), cpuMs(full), cpuMs(full)]);
  const work = totalWork(measureRenderWork(() => renderMarkdown(full, ctx))) / full.length;
  console.log(`${name.padEnd(30)} ${a.toFixed(1).padStart(9)} ${b.toFixed(1).padStart(9)}  x${(b / Math.max(a, 0.01)).toFixed(1).padEnd(5)} ${work.toFixed(1).padStart(7)}`);
}
