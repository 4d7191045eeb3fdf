// Message shapes that once made (or could make) the Markdown renderer do more than linear work,
// each built to a given length: the safety test bounds the renderer's counted work on them at
// the message length limit, and bench/markdown-hostile.ts times them.

// Repeats `unit` to fill `length` characters.
const fill = (unit: string, length: number): string => unit.repeat(Math.floor(length / unit.length));

// Lines made by `line(i)` until `length` characters.
function lines(length: number, line: (i: number) => string, sep = '\n'): string {
  const out: string[] = [];
  let size = 0;
  for (let i = 0; size < length; i++) {
    const l = line(i);
    out.push(l);
    size += l.length + sep.length;
  }
  return out.join(sep).slice(0, length);
}

export const HOSTILE_SHAPES: readonly (readonly [string, (length: number) => string])[] = [
  ['quote fences', (n) => fill('```quote\n', n)],
  ['quote fences with text', (n) => fill('```quote\nx\n', n)],
  ['spoiler fences', (n) => fill('```spoiler\n', n)],
  ['spoiler fences with header', (n) => fill('```spoiler h\nx\n', n)],
  ['quote and spoiler fences', (n) => fill('```quote\n```spoiler\n', n)],
  ['code fences in quotes', (n) => fill('```quote\n```\nx\n```\n', n)],
  ['math fences', (n) => fill('```math\nx\n', n)],
  ['fences', (n) => fill('```\n', n)],
  ['many emphasis markers', (n) => fill('*a ', n)],
  ['unclosed strong', (n) => fill('**a ', n)],
  ['strong emphasis', (n) => fill('***a ', n)],
  ['strikes', (n) => fill('~~a ', n)],
  ['deep quotes', (n) => fill('>', n - 2) + ' x'],
  ['quote lines', (n) => fill('> > > > x\n', n)],
  ['deep lists', (n) => lines(n, (i) => ' '.repeat(i * 2) + '* x')],
  ['list items', (n) => fill('* x\n', n)],
  ['unbalanced brackets', (n) => fill('[', n / 2) + fill('](', n / 2)],
  ['links', (n) => fill('[a](b) ', n)],
  ['many URLs', (n) => fill('https://example.com/x.png ', n)],
  ['URL starts', (n) => fill('(a.com/', n)],
  ['mentions', (n) => fill('@**x** ', n)],
  ['unclosed mentions', (n) => fill('@**x ', n)],
  ['emoji', (n) => fill(':smile: ', n)],
  ['emoji colons', (n) => fill(':a', n)],
  ['backtick runs', (n) => fill('`x ', n)],
  ['backtick runs of many lengths', (n) => lines(n, (i) => '`'.repeat((i % 50) + 1) + 'x', ' ')],
  ['a line of backticks', (n) => fill('`', n)],
  ['dollars', (n) => fill('$$a ', n)],
  ['math block markers', (n) => fill('$$\n', n)],
  ['timestamps', (n) => fill('<time:', n)],
  ['a wide table', (n) => '|' + fill('a|', n / 2 - 2) + '\n|' + fill('-|', n / 2 - 2)],
  ['table rows', (n) => 'a|b\n-|-\n' + fill('x|y\n', n - 8)],
  ['linkifier matches', (n) => fill('#1 ', n)],
];
