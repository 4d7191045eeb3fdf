// renderMarkdown takes a shortcut for one line of plain words (no parse): it must answer exactly
// what the parse answers, for those lines and for everything near them that it must leave alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAndRender, plainContext, renderMarkdown } from '../../../src/lib/markdown/index.ts';
import { measureRenderWork, totalWork } from '../../../src/lib/markdown/work.ts';
import type { MarkdownContext } from '../../../src/lib/markdown/types.ts';

const plain = plainContext('https://chat.example');
const linkified: MarkdownContext = {
  ...plain,
  linkifiers: [
    { id: 1, pattern: 'ticket(?P<id>[0-9]+)', urlTemplate: 'https://tracker.example/tickets/{id}' },
    { id: 2, pattern: 'RFC (?P<n>[0-9]+)', urlTemplate: 'https://www.rfc-editor.org/rfc/rfc{n}' },
  ],
  translateEmoticons: true,
};

/** Whether renderMarkdown answered without parsing (the parse counts its work; the shortcut has none). */
function shortcut(content: string, ctx: MarkdownContext): boolean {
  return totalWork(measureRenderWork(() => renderMarkdown(content, ctx))) === 0;
}

function assertSame(content: string, ctx: MarkdownContext): void {
  assert.deepEqual(renderMarkdown(content, ctx), parseAndRender(content, ctx), JSON.stringify(content));
}

test('a line of plain words renders as the parse renders it, without the parse', () => {
  for (const content of ['ok', 'sounds good, see you then.', 'Is it 5 or 6? Both!', 'He said "no" and she said \'yes\'', 'Done. Next one', 'a  b']) {
    assertSame(content, plain);
    assert.ok(shortcut(content, plain), JSON.stringify(content));
  }
  assert.equal(renderMarkdown('sounds good, see you then.', plain).html, '<p>sounds good, see you then.</p>');
});

test('what could be markup is parsed: lists, domains, emoticons, mentions, emphasis, and linkifier matches', () => {
  const parsed = [
    '1. first', '10) tenth', 'example.com', 'see www.example.com now', 'mail a.b', ' indented', 'trailing ', 'two\nlines',
    'smile :)', 'hi @**Ada**', '#stream', '*bold*', '_em_', '~~gone~~', '`code`', '$$x$$', '<b>', 'a & b', 'a > b', '[link](x)',
    'http://x', 'back\\slash', '- item', '+ item', '> quote', '    code', '/me waves', 'café', 'thumbs 👍', 'tab\there', '!', '?', 'end...',
  ];
  for (const content of parsed) {
    assertSame(content, linkified);
    assert.ok(!shortcut(content, linkified), JSON.stringify(content));
  }
  for (const content of ['see ticket42 please', 'per RFC 9110 it is']) {
    assertSame(content, linkified);
    assert.ok(!shortcut(content, linkified), JSON.stringify(content));
    assert.match(renderMarkdown(content, linkified).html, /<a href="https:\/\//);
    // Without that realm's linkifiers the same words are plain.
    assert.ok(shortcut(content, plain));
  }
});

test('random lines near plain words render as the parse renders them', () => {
  // A fixed seed: the same lines on every run.
  let seed = 19;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const plainChars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,.?!\'" ';
  const otherChars = ':@#*_~`$<>&[]()/\\-+=|\n\t;%^{}é😀';
  let taken = 0;
  for (let i = 0; i < 4000; i++) {
    const length = 1 + Math.floor(random() * 30);
    let content = '';
    for (let j = 0; j < length; j++) {
      const pool = random() < 0.97 ? plainChars : otherChars;
      content += pool[Math.floor(random() * pool.length)];
    }
    for (const ctx of [plain, linkified]) assertSame(content, ctx);
    if (shortcut(content, plain)) taken++;
  }
  // Enough of them took the shortcut for the comparison to mean something.
  assert.ok(taken > 500, `only ${taken} took the shortcut`);
});
