import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { emojiTables } from '../../../src/lib/markdown/emoji-data.ts';
import {
  buildUnicodeEmoji,
  emojiChar,
  emojiIndex,
  emojiNames,
  gridMove,
  loadUnicodeEmoji,
  popularFirst,
  reactionGlyph,
  searchEmoji,
  toReaction,
  withRealmEmoji,
  type DatasourceEntry,
} from '../../lib/emoji-data.ts';

const require = createRequire(import.meta.url);
const unicode = buildUnicodeEmoji(require('emoji-datasource/emoji.json') as DatasourceEntry[]);
const realm = {
  '3': { id: '3', name: 'parrot', source_url: '/user_avatars/1/emoji/images/3.gif', deactivated: false },
  '4': { id: '4', name: 'old', source_url: '/user_avatars/1/emoji/images/4.png', deactivated: true },
  '5': { id: '5', name: 'tada', source_url: '/user_avatars/1/emoji/images/5.png', deactivated: false },
};

test('every name and code agrees with the server, so every reaction the picker sends is accepted', () => {
  const { nameToCode, codeToName } = emojiTables();
  const names = new Map<string, string>();
  for (const e of unicode) for (const n of [e.emoji_name, ...e.aliases]) names.set(n, e.emoji_code);
  assert.equal(names.size, nameToCode.size);
  for (const [name, code] of nameToCode) assert.equal(names.get(name), code, name);
  assert.equal(unicode.length, codeToName.size);
  for (const e of unicode) assert.equal(nameToCode.get(e.emoji_name), e.emoji_code, e.emoji_name);
});

test('the reference names win where the data set differs', () => {
  const byName = new Map(unicode.map((e) => [e.emoji_name, e]));
  assert.equal(byName.get('smile')?.emoji_code, '1f642');
  assert.equal(byName.get('+1')?.emoji_code, '1f44d');
  assert.deepEqual(byName.get('+1')?.aliases, ['thumbs_up', 'thumbsup', 'like']);
  assert.equal(unicode[0]?.category, 'Smileys & Emotion');
  assert.ok(!unicode.some((e) => e.category === 'Component'));
});

test('loadUnicodeEmoji loads the data set lazily and caches it', async () => {
  const a = await loadUnicodeEmoji();
  assert.deepEqual(a, unicode);
  assert.equal(await loadUnicodeEmoji(), a);
});

test('realm emoji join as Custom, take over a Unicode name, and deactivated ones stay out', () => {
  const all = withRealmEmoji(unicode, realm);
  const custom = all.filter((e) => e.reaction_type === 'realm_emoji');
  assert.deepEqual(custom.map((e) => [e.emoji_name, e.emoji_code, e.category]), [
    ['parrot', '3', 'Custom'],
    ['tada', '5', 'Custom'],
  ]);
  assert.equal(all.filter((e) => e.emoji_name === 'tada').length, 1);
  assert.deepEqual(toReaction(custom[0]!), { emoji_name: 'parrot', emoji_code: '3', reaction_type: 'realm_emoji' });
  assert.equal(withRealmEmoji(unicode, Object.values(realm)).length, all.length);
});

test('popular emoji come first, and search ranks word prefixes first', () => {
  const popular = popularFirst(unicode).slice(0, 6).map((e) => e.emoji_name);
  assert.deepEqual(popular, ['+1', 'tada', 'smile', 'heart', 'hammer_and_wrench', 'octopus']);
  const names = emojiNames(unicode);
  assert.equal(names[0], '+1');
  assert.equal(names[1], 'thumbs_up');
  const found = searchEmoji(popularFirst(unicode), 'smile').map((e) => e.emoji_name);
  assert.equal(found[0], 'smile');
  assert.ok(found.includes('sweat_smile'));
  assert.ok(found.indexOf('sweat_smile') < found.indexOf('smiley_cat') || !found.includes('smiley_cat'));
  assert.deepEqual(searchEmoji(unicode, ':thumbs up').map((e) => e.emoji_name).slice(0, 1), ['+1']);
  assert.equal(searchEmoji(unicode, '').length, unicode.length);
  assert.deepEqual(searchEmoji(unicode, 'zzzzqq'), []);
});

test('emojiChar and reactionGlyph render a reaction', () => {
  assert.equal(emojiChar('1f44d'), '👍');
  assert.equal(emojiChar('2764'), '❤\ufe0f');
  assert.equal(emojiChar('1f468-200d-1f4bb'), '👨‍💻');
  assert.equal(emojiChar('0023-20e3'), '#\ufe0f\u20e3');
  assert.equal(emojiChar('zz'), '');
  assert.deepEqual(reactionGlyph({ emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }), { kind: 'text', text: '👍', label: 'thumbs up' });
  assert.deepEqual(reactionGlyph({ emoji_name: 'parrot', emoji_code: '3', reaction_type: 'realm_emoji' }, realm), {
    kind: 'image',
    src: '/user_avatars/1/emoji/images/3.gif',
    label: 'parrot',
  });
  // A deactivated custom emoji still shows on old reactions.
  assert.equal(reactionGlyph({ emoji_name: 'old', emoji_code: '4', reaction_type: 'realm_emoji' }, realm).kind, 'image');
  assert.deepEqual(reactionGlyph({ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' }), { kind: 'text', text: ':zulip:', label: 'zulip' });
});

test('gridMove walks the picker grid and leaves it upward to the searchbox', () => {
  assert.equal(gridMove(0, 'ArrowRight', 20, 8), 1);
  assert.equal(gridMove(19, 'ArrowRight', 20, 8), 19);
  assert.equal(gridMove(0, 'ArrowLeft', 20, 8), 0);
  assert.equal(gridMove(3, 'ArrowDown', 20, 8), 11);
  assert.equal(gridMove(15, 'ArrowDown', 20, 8), 15);
  assert.equal(gridMove(11, 'ArrowUp', 20, 8), 3);
  assert.equal(gridMove(3, 'ArrowUp', 20, 8), 'search');
  assert.equal(gridMove(5, 'Home', 20, 8), 0);
  assert.equal(gridMove(5, 'End', 20, 8), 19);
  assert.equal(gridMove(5, 'x', 20, 8), undefined);
  assert.equal(gridMove(0, 'ArrowUp', 0, 8), 'search');
});

test('emojiIndex finds an entry by any of its names', () => {
  const index = emojiIndex(withRealmEmoji(unicode, realm));
  assert.equal(index.get('thumbsup')?.emoji_name, '+1');
  assert.equal(index.get('parrot')?.reaction_type, 'realm_emoji');
  assert.equal(index.get('tada')?.reaction_type, 'realm_emoji');
});
