import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plainContext, renderMarkdown } from '../../../src/lib/markdown/index.ts';
import type { MarkdownContext } from '../../../src/lib/markdown/types.ts';
import { LIMITS } from '../../../src/lib/limits.ts';
import { MAX_NESTING } from '../../../src/lib/markdown/engine.ts';
import { MAX_QUOTE_PREFIXES } from '../../../src/lib/markdown/preprocess.ts';
import { measureRenderWork, totalWork } from '../../../src/lib/markdown/work.ts';
import { HOSTILE_SHAPES } from '../../helpers/markdown-shapes.ts';

const ctx: MarkdownContext = {
  ...plainContext('https://chat.example'),
  linkifiers: [{ id: 1, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://tracker.example/{id}' }],
  externalImageUrl: (url) => '/external/' + encodeURIComponent(url),
};

function assertSafe(html: string): void {
  assert.doesNotMatch(html, /<script/i, html);
  assert.doesNotMatch(html, /<[a-z][^>]*\son[a-z]+\s*=/i, 'event handler attribute');
  // Only real tags count: text never contains a raw '<'.
  for (const tagMatch of html.matchAll(/<[a-z][^<>]*>/g)) {
    for (const m of tagMatch[0].matchAll(/\s(?:href|src)="([^"]*)"/g)) {
      const url = (m[1] ?? '').replace(/&amp;/g, '&').trim().toLowerCase();
      assert.doesNotMatch(url, /^(javascript|data|vbscript):/, `unsafe URL ${url}`);
    }
  }
  assert.doesNotMatch(html, /<(iframe|object|embed|style|svg|form|input|img[^>]*onerror)/i);
}

const HOSTILE = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](java\tscript:alert(1))',
  '[x]( javascript:alert(1))',
  '[x](javascript&#58;alert(1))',
  '[x](&#106;avascript:alert(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[x](vbscript:msgbox(1))',
  '[x](https://ok.example" onmouseover="alert(1))',
  '![x](javascript:alert(1))',
  'data:text/html,<script>alert(1)</script>',
  '```spoiler <img src=x onerror=alert(1)>\n<script>x</script>\n```',
  '```" onmouseover="alert(1)\ncode\n```',
  '$$\\href{javascript:alert(1)}{x}$$',
  '$$\\url{javascript:alert(1)}$$',
  '```math\n\\htmlStyle{color:red}{x} \\href{javascript:alert(1)}{y}\n```',
  '<time:"><script>alert(1)</script>>',
  '@**"><script>**',
  '#**"><script>**',
  ':"><script>:',
  '**<b onclick=alert(1)>x</b>**',
  'https://example.com/"onmouseover="alert(1)',
  'https://example.com/x.png"onerror="alert(1).png',
  '#123"><script>',
  '> <script>\n>> <iframe src=javascript:alert(1)>',
  '* <svg onload=alert(1)>\n  * [a](javascript:b)',
  '| a | b |\n|---|---|\n| <script> | [x](javascript:y) |',
  '<<script>script>evil()<</script>/script>',
  '`<script>` ``` <script> ```',
  '~~~\n</code></pre><script>alert(1)</script>\n~~~',
];

test('hostile inputs render without scripts, handlers or unsafe URLs', () => {
  for (const input of HOSTILE) assertSafe(renderMarkdown(input, ctx).html);
});

test('a javascript: link stays text', () => {
  assert.equal(renderMarkdown('[x](javascript:alert(1))', ctx).html, '<p>[x](javascript:alert(1))</p>');
});

test('raw HTML is escaped', () => {
  assert.equal(renderMarkdown('<b onclick="x">hi</b>', ctx).html, '<p>&lt;b onclick="x"&gt;hi&lt;/b&gt;</p>');
});

const BIG = [
  ['deep quotes', '>'.repeat(5000) + ' x'],
  ['deep lists', Array.from({ length: 2000 }, (_, i) => ' '.repeat(i * 2) + '* x').join('\n')],
  ['many emphasis markers', '*a '.repeat(5000)],
  ['unclosed strong', '**a '.repeat(5000)],
  ['unbalanced brackets', '['.repeat(10000) + ']('.repeat(5000)],
  ['nested parens in a URL', 'http://a.com/' + '('.repeat(5000) + ')'.repeat(5000)],
  ['many URL starts', '(a.com/'.repeat(3000)],
  ['backtick runs', Array.from({ length: 3000 }, (_, i) => '`'.repeat((i % 50) + 1) + 'x').join(' ')],
  ['dollars', '$$a '.repeat(5000)],
  ['mentions', '@**x '.repeat(5000)],
  ['fences', '```\n'.repeat(3000)],
  ['quote fences', '```quote\n'.repeat(500)],
  ['emoji colons', ':a'.repeat(10000)],
  ['long line', 'word '.repeat(20000)],
  ['many links', 'https://example.com/x.png '.repeat(2000)],
  ['huge input', 'x'.repeat(300_000)],
] as const;

// Catastrophic (exponential) backtracking on inputs this size would never finish: rendering each
// one at all is the check, with no clock involved (how fast they render is for a bench to say).
test('large and deeply nested input renders to completion, and safely', () => {
  for (const [, input] of BIG) assertSafe(renderMarkdown(input, ctx).html);
});

// Work is counted, not timed, so these cannot flake. A line gains at most MAX_QUOTE_PREFIXES "> "
// (a fenced quote line of 9 characters makes two such lines), and markdown-it goes through a line
// once per nesting level, at most MAX_NESTING + 1 times: that is the linear bound per character.
const WORK_PER_CHARACTER = (2 * 2 * MAX_QUOTE_PREFIXES + 1) * (MAX_NESTING + 1);

test('the work of rendering a hostile message is linear in its length, up to the length limit', () => {
  // The prefix cap only keeps output the same while it is past markdown-it's nesting limit.
  assert.ok(MAX_QUOTE_PREFIXES > MAX_NESTING + 1);
  const length = LIMITS.maxMessageLength;
  for (const [name, make] of HOSTILE_SHAPES) {
    const full = make(length);
    const half = make(length / 2);
    assert.ok(full.length <= length && full.length > length * 0.9, `${name}: ${full.length} characters`);
    const work = measureRenderWork(() => assertSafe(renderMarkdown(full, ctx).html));
    const halfWork = totalWork(measureRenderWork(() => renderMarkdown(half, ctx)));
    const total = totalWork(work);
    assert.ok(total <= WORK_PER_CHARACTER * full.length, `${name}: ${total} units of work for ${full.length} characters ${JSON.stringify(work)}`);
    // Twice the input, at most a little over twice the work (quadratic would be 4 times).
    assert.ok(total <= 2.5 * halfWork + full.length, `${name}: work ${halfWork} at ${half.length} characters, ${total} at ${full.length}`);
  }
});

test('nested quote fences past the nesting limit render as before, linearly', () => {
  // Deeper than markdown-it's nesting limit nothing shows; the quotes above it do.
  const depth = 1000;
  const input = '```quote\nq\n'.repeat(depth) + '```\n'.repeat(depth);
  const work = measureRenderWork(() => renderMarkdown(input, ctx));
  const html = renderMarkdown(input, ctx).html;
  assert.equal(html.match(/<blockquote>/g)?.length, html.match(/<\/blockquote>/g)?.length);
  assert.ok((html.match(/<blockquote>/g)?.length ?? 0) >= MAX_NESTING / 2);
  assert.ok(work.fenceParts <= 6 * depth, JSON.stringify(work));
  assert.ok(work.preprocessedChars <= (2 * MAX_QUOTE_PREFIXES + 2) * 3 * depth, JSON.stringify(work));
});

test('input cannot forge a stash placeholder', () => {
  const html = renderMarkdown('```\ncode\n```\n\n\u00010\u0001', ctx).html;
  assert.equal(html.match(/codehilite/g)?.length, 1);
});
