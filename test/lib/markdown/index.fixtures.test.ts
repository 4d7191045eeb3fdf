// The reference dialect's own fixtures. See src/lib/markdown/README.md for the cases we render
// differently on purpose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderMarkdown } from '../../../src/lib/markdown/index.ts';
import { linkifyExpected, normalize, referenceContext, referenceFixtures } from '../../helpers/markdown-reference.ts';

// Deliberately different; each has a reason in the README.
const KNOWN_DIFFERENT = new Set([
  'codeblock_hilite_startinline_php', 'fenced_quotes_inside_mathblock', 'tex_complex', 'tex_safe_script_tag',
]);
const REGULAR_THRESHOLD = 0.97; // 180/184 reached; fail on any regression below that
const LINKIFY_THRESHOLD = 1;

const fixtures = referenceFixtures();

test('reference fixtures: regular cases match after whitespace normalization', (t) => {
  if (!fixtures) return t.skip('reference fixtures not found');
  const failed: string[] = [];
  let strict = 0;
  for (const c of fixtures.regular) {
    const html = renderMarkdown(c.input, referenceContext(c.translate_emoticons ?? false)).html;
    if (html === c.expected_output) strict++;
    if (normalize(html) !== normalize(c.expected_output)) failed.push(c.name);
  }
  const share = (fixtures.regular.length - failed.length) / fixtures.regular.length;
  t.diagnostic(`regular: ${fixtures.regular.length - failed.length}/${fixtures.regular.length} = ${(share * 100).toFixed(1)}% (byte-exact ${strict})`);
  const unexpected = failed.filter((n) => !KNOWN_DIFFERENT.has(n));
  assert.deepEqual(unexpected, [], 'cases that differ but are not listed as deliberate');
  assert.ok(share >= REGULAR_THRESHOLD, `share ${share} below ${REGULAR_THRESHOLD}`);
});

test('reference fixtures: linkify cases match', (t) => {
  if (!fixtures) return t.skip('reference fixtures not found');
  const failed = fixtures.linkify.filter((c) => normalize(renderMarkdown(c[0], referenceContext()).html) !== normalize(linkifyExpected(c)));
  const share = (fixtures.linkify.length - failed.length) / fixtures.linkify.length;
  t.diagnostic(`linkify: ${fixtures.linkify.length - failed.length}/${fixtures.linkify.length} = ${(share * 100).toFixed(1)}%`);
  assert.ok(share >= LINKIFY_THRESHOLD, `failed: ${failed.map((c) => c[0]).join(' | ')}`);
});
