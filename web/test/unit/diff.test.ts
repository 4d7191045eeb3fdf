// The edit history's word differences.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffWords, type DiffPart } from '../../lib/diff.ts';

const side = (parts: DiffPart[], keep: 'removed' | 'added') => parts.filter((p) => p.op === 'same' || p.op === keep).map((p) => p.text).join('');

test('a changed word shows as removed then added, the rest unchanged', () => {
  assert.deepEqual(diffWords('Pizza at noon?', 'Pizza at one?'), [
    { op: 'same', text: 'Pizza at ' },
    { op: 'removed', text: 'noon' },
    { op: 'added', text: 'one' },
    { op: 'same', text: '?' },
  ]);
});

test('insertions and deletions in the middle; identical texts are one unchanged part', () => {
  assert.deepEqual(diffWords('a b c', 'a x b c d'), [
    { op: 'same', text: 'a ' },
    { op: 'added', text: 'x ' },
    { op: 'same', text: 'b c' },
    { op: 'added', text: ' d' },
  ]);
  assert.deepEqual(diffWords('one two three', 'one three'), [
    { op: 'same', text: 'one ' },
    { op: 'removed', text: 'two ' },
    { op: 'same', text: 'three' },
  ]);
  assert.deepEqual(diffWords('same', 'same'), [{ op: 'same', text: 'same' }]);
  assert.deepEqual(diffWords('', 'new'), [{ op: 'added', text: 'new' }]);
});

test('each side of a diff gives back its text, for unrelated and multi-line texts too', () => {
  const pairs: [string, string][] = [
    ['The quick brown fox\njumps over the lazy dog.', 'A quick red fox\njumped over the dog!\nNew line.'],
    ['Ünïcode wörds, ok', 'Unicode words, ok'],
    ['x'.repeat(50) + ' ' + 'a b '.repeat(300), 'b a '.repeat(300)],
  ];
  for (const [a, b] of pairs) {
    const parts = diffWords(a, b);
    assert.equal(side(parts, 'removed'), a);
    assert.equal(side(parts, 'added'), b);
  }
});
