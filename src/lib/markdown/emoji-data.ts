// Unicode emoji names and codes. The base set is emoji-datasource (the iamcal data the reference
// also starts from); a few canonical names are overridden so that the common names clients send
// (`:smile:`, `:poop:`, `:cat:` ...) mean the same emoji as in the reference dialect.
import fs from 'node:fs';
import { createRequire } from 'node:module';

interface DatasourceEntry {
  unified: string;
  name: string | null;
  short_names: string[];
  category: string;
}

// code -> names (canonical first). Only where the reference's name differs from the data set's.
const NAME_OVERRIDES: Record<string, string[]> = {
  '1f642': ['smile'],
  '1f604': ['big_smile'],
  '1f641': ['frown'],
  '1f4a9': ['poop', 'shit'],
  '1f384': ['holiday_tree', 'christmas_tree'],
  '2b06': ['up', 'arrow_up'],
  '2797': ['division'],
  '1f408': ['cat'],
  '1f415': ['dog'],
  '1f407': ['rabbit'],
  '1f95d': ['kiwi'],
  '1f947': ['gold', 'first_place_medal'],
  '1f916': ['robot'],
  '1f373': ['cooking'],
  '1f44d': ['+1', 'thumbs_up', 'thumbsup', 'like'],
};

export interface EmojiTables {
  nameToCode: Map<string, string>;
  codeToName: Map<string, string>;
}

// Codes are lowercase hex code points joined by '-', without the FE0F variation selector.
export function emojiCode(text: string): string {
  const parts: string[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp === 0xfe0f) continue;
    parts.push(cp.toString(16).padStart(4, '0'));
  }
  return parts.join('-');
}

function fallbackName(entry: DatasourceEntry): string | undefined {
  if (!entry.name) return undefined;
  return entry.name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
}

function build(): EmojiTables {
  // Read, not required: require() would keep the parsed file (several MB) in its cache for good;
  // only the two maps below are kept.
  const file = createRequire(import.meta.url).resolve('emoji-datasource/emoji.json');
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as DatasourceEntry[];
  const claimed = new Set<string>();
  for (const names of Object.values(NAME_OVERRIDES)) for (const n of names) claimed.add(n);
  const nameToCode = new Map<string, string>();
  const codeToName = new Map<string, string>();
  for (const entry of data) {
    // Skin tone modifiers on their own are not emoji names in the reference dialect.
    if (entry.category === 'Component') continue;
    const code = entry.unified.toLowerCase().replace(/-fe0f/g, '');
    let names = NAME_OVERRIDES[code];
    if (!names) {
      names = entry.short_names.map((n) => n.replace(/-/g, '_')).filter((n) => !claimed.has(n));
      if (names.length === 0) {
        const fb = fallbackName(entry);
        if (fb && !claimed.has(fb)) names = [fb];
      }
    }
    const canonical = names[0];
    if (canonical === undefined) continue;
    codeToName.set(code, canonical);
    for (const n of names) if (!nameToCode.has(n)) nameToCode.set(n, code);
  }
  return { nameToCode, codeToName };
}

let tables: EmojiTables | undefined;

export function emojiTables(): EmojiTables {
  tables ??= build();
  return tables;
}
