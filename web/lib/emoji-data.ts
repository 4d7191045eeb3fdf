// Emoji names and codes for the picker, the `:` typeahead and reactions.
//
// The Unicode set is emoji-datasource, named by the module the server names it with
// (src/lib/emoji-names.ts), so every name the client sends is one the server accepts. The data set is 1.3 MB of JSON (about 100 KB gzipped): it is loaded
// with a dynamic import(), so the bundler puts it in a chunk of its own, fetched the first time
// the picker opens or `:` is typed, never with the main view.
//
// Interface:
//   type ReactionType = 'unicode_emoji' | 'realm_emoji' | 'service_extra_emoji'
//   interface EmojiEntry { emoji_name; emoji_code; reaction_type; aliases: string[]; category; url? }
//   loadUnicodeEmoji() -> Promise<EmojiEntry[]>      lazy, cached; sorted by category order
//   buildUnicodeEmoji(datasource) -> EmojiEntry[]    the pure part (tests, or a build-time step)
//   withRealmEmoji(unicode, realmEmoji) -> EmojiEntry[]   the register's `realm_emoji` (object or
//     array) added as category 'Custom'; active ones only; a custom emoji takes over a Unicode name
//   POPULAR_EMOJI_CODES, popularFirst(entries) -> EmojiEntry[]
//   emojiNames(entries) -> string[]    every name and alias, popular first, for typeahead's data.emoji
//   emojiIndex(entries) -> Map<name or alias, EmojiEntry>   to show a typeahead name's glyph
//   searchEmoji(entries, query) -> EmojiEntry[]   by any name; prefix of a word before substring
//   emojiChar(code) -> string          "1f44d" -> "👍" (adds U+FE0F where text presentation is the default)
//   reactionGlyph(reaction, realmEmoji?) -> { kind: 'text', text, label } | { kind: 'image', src, label }
//   toReaction(entry) -> { emoji_name, emoji_code, reaction_type }   the API's reaction shape
//   gridMove(index, key, count, columns) -> number | 'search' | undefined   the picker's arrow-key navigation
import { matchRank } from './typeahead.ts';
import { datasourceCode, namedEmoji, type DatasourceNames } from '../../src/lib/emoji-names.ts';

export interface DatasourceEntry extends DatasourceNames {
  sort_order: number;
}

export type ReactionType = 'unicode_emoji' | 'realm_emoji' | 'service_extra_emoji';

export interface EmojiEntry {
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
  /** Other names for the same emoji (typeahead and search find them). */
  aliases: string[];
  category: string;
  /** Custom emoji image. */
  url?: string | undefined;
}

export interface RealmEmoji {
  id: string | number;
  name: string;
  source_url: string;
  still_url?: string | null | undefined;
  deactivated?: boolean | undefined;
}

export interface ReactionLike {
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

export const CATEGORY_ORDER = [
  'Smileys & Emotion',
  'People & Body',
  'Animals & Nature',
  'Food & Drink',
  'Activities',
  'Travel & Places',
  'Objects',
  'Symbols',
  'Flags',
  'Custom',
];

/** The reference's default "popular" set (+1, tada, smile, heart, working on it, octopus), then a few more. */
export const POPULAR_EMOJI_CODES = ['1f44d', '1f389', '1f642', '2764', '1f6e0', '1f419', '1f602', '1f440', '2705', '1f64f', '1f525', '1f914'];

export function buildUnicodeEmoji(data: readonly DatasourceEntry[]): EmojiEntry[] {
  const nameToCode = new Map<string, string>();
  const byCode = new Map<string, { names: string[]; canonical: string; entry: DatasourceEntry }>();
  for (const { code, names, entry } of namedEmoji(data)) {
    byCode.set(code, { names, canonical: names[0]!, entry });
    for (const n of names) if (!nameToCode.has(n)) nameToCode.set(n, code);
  }
  const out: EmojiEntry[] = [];
  for (const [code, { names, canonical, entry }] of byCode) {
    // Only names that resolve to this code on the server may be sent with it.
    const valid = names.filter((n) => nameToCode.get(n) === code);
    const name = nameToCode.get(canonical) === code ? canonical : valid[0];
    if (name === undefined) continue;
    out.push({ emoji_name: name, emoji_code: code, reaction_type: 'unicode_emoji', aliases: valid.filter((n) => n !== name), category: entry.category });
  }
  const order = new Map(data.map((e) => [datasourceCode(e), e.sort_order]));
  const cat = (c: string) => (CATEGORY_ORDER.indexOf(c) + 1 || CATEGORY_ORDER.length + 1);
  return out.sort((a, b) => cat(a.category) - cat(b.category) || (order.get(a.emoji_code) ?? 0) - (order.get(b.emoji_code) ?? 0));
}

let unicodePromise: Promise<EmojiEntry[]> | undefined;

export function loadUnicodeEmoji(): Promise<EmojiEntry[]> {
  unicodePromise ??= import('emoji-datasource/emoji.json').then((m: { default: unknown }) => buildUnicodeEmoji(m.default as DatasourceEntry[]));
  // A failed fetch (a deploy replaced the chunk, the network dropped) may be retried later.
  unicodePromise.catch(() => {
    unicodePromise = undefined;
  });
  return unicodePromise;
}

function realmList(realmEmoji: Readonly<Record<string, RealmEmoji>> | readonly RealmEmoji[]): readonly RealmEmoji[] {
  return Array.isArray(realmEmoji) ? realmEmoji : Object.values(realmEmoji as Readonly<Record<string, RealmEmoji>>);
}

export function withRealmEmoji(unicode: readonly EmojiEntry[], realmEmoji: Readonly<Record<string, RealmEmoji>> | readonly RealmEmoji[]): EmojiEntry[] {
  const custom: EmojiEntry[] = realmList(realmEmoji)
    .filter((e) => !e.deactivated)
    .map((e) => ({ emoji_name: e.name, emoji_code: String(e.id), reaction_type: 'realm_emoji', aliases: [], category: 'Custom', url: e.source_url }));
  const taken = new Set(custom.map((e) => e.emoji_name));
  const out: EmojiEntry[] = [];
  for (const e of unicode) {
    if (!taken.has(e.emoji_name)) out.push(e.aliases.some((a) => taken.has(a)) ? { ...e, aliases: e.aliases.filter((a) => !taken.has(a)) } : e);
  }
  return [...out, ...custom.sort((a, b) => a.emoji_name.localeCompare(b.emoji_name))];
}

export function popularFirst(entries: readonly EmojiEntry[]): EmojiEntry[] {
  const rank = new Map(POPULAR_EMOJI_CODES.map((c, i) => [c, i]));
  const popular = entries.filter((e) => e.reaction_type === 'unicode_emoji' && rank.has(e.emoji_code));
  popular.sort((a, b) => rank.get(a.emoji_code)! - rank.get(b.emoji_code)!);
  return [...popular, ...entries.filter((e) => !popular.includes(e))];
}

export function emojiNames(entries: readonly EmojiEntry[]): string[] {
  return popularFirst(entries).flatMap((e) => [e.emoji_name, ...e.aliases]);
}

/** Every name and alias to its entry: what the `:` typeahead shows next to a suggested name. */
export function emojiIndex(entries: readonly EmojiEntry[]): Map<string, EmojiEntry> {
  const index = new Map<string, EmojiEntry>();
  for (const e of entries) for (const n of [e.emoji_name, ...e.aliases]) if (!index.has(n)) index.set(n, e);
  return index;
}

export function searchEmoji(entries: readonly EmojiEntry[], query: string): EmojiEntry[] {
  const q = query.trim().replace(/^:|:$/g, '').replace(/ /g, '_');
  if (q === '') return [...entries];
  const ranked: { e: EmojiEntry; rank: number; i: number }[] = [];
  entries.forEach((e, i) => {
    let rank = -1;
    for (const n of [e.emoji_name, ...e.aliases]) {
      const r = matchRank(q, n);
      if (r >= 0 && (rank < 0 || r < rank)) rank = r;
    }
    if (rank >= 0) ranked.push({ e, rank, i });
  });
  return ranked.sort((a, b) => a.rank - b.rank || a.i - b.i).map((r) => r.e);
}

export function emojiChar(code: string): string {
  const points = code.split('-').map((h) => Number.parseInt(h, 16));
  if (points.some((p) => !Number.isInteger(p) || p < 0 || p > 0x10ffff)) return '';
  const text = String.fromCodePoint(...points);
  // A lone character such as ❤ (2764) shows as a text glyph unless asked for emoji presentation.
  if (points.length === 1 && !/\p{Emoji_Presentation}/u.test(text)) return text + '\ufe0f';
  // Keycaps (# 0-9) need the selector before the combining enclosing keycap.
  if (points.length === 2 && points[1] === 0x20e3) return String.fromCodePoint(points[0]!, 0xfe0f, 0x20e3);
  return text;
}

export type Glyph = { kind: 'text'; text: string; label: string } | { kind: 'image'; src: string; label: string };

export function reactionGlyph(reaction: ReactionLike, realmEmoji?: Readonly<Record<string, RealmEmoji>> | readonly RealmEmoji[]): Glyph {
  const label = reaction.emoji_name.replace(/_/g, ' ');
  if (reaction.reaction_type === 'realm_emoji') {
    const custom = realmEmoji ? realmList(realmEmoji).find((e) => String(e.id) === reaction.emoji_code) : undefined;
    if (custom) return { kind: 'image', src: custom.source_url, label };
  } else if (reaction.reaction_type === 'unicode_emoji') {
    const text = emojiChar(reaction.emoji_code);
    if (text) return { kind: 'text', text, label };
  }
  return { kind: 'text', text: `:${reaction.emoji_name}:`, label };
}

export function toReaction(entry: EmojiEntry): ReactionLike & { reaction_type: ReactionType } {
  return { emoji_name: entry.emoji_name, emoji_code: entry.emoji_code, reaction_type: entry.reaction_type };
}

export type GridKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End';

/** The picker's grid navigation: the next index, 'search' to go back up to the searchbox, or
 * undefined when the key does not move. */
export function gridMove(index: number, key: string, count: number, columns: number): number | 'search' | undefined {
  if (count === 0) return key === 'ArrowUp' ? 'search' : undefined;
  switch (key) {
    case 'ArrowRight':
      return Math.min(index + 1, count - 1);
    case 'ArrowLeft':
      return Math.max(index - 1, 0);
    case 'ArrowDown':
      return index + columns < count ? index + columns : index;
    case 'ArrowUp':
      return index - columns >= 0 ? index - columns : 'search';
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}
