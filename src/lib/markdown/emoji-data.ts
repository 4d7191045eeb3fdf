// Unicode emoji names and codes. The base set is emoji-datasource (the iamcal data the reference
// also starts from), named as src/lib/emoji-names.ts says.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { namedEmoji, type DatasourceNames } from '../emoji-names.ts';

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

function build(): EmojiTables {
  // Read, not required: require() would keep the parsed file (several MB) in its cache for good;
  // only the two maps below are kept.
  const file = createRequire(import.meta.url).resolve('emoji-datasource/emoji.json');
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as DatasourceNames[];
  const nameToCode = new Map<string, string>();
  const codeToName = new Map<string, string>();
  for (const { code, names } of namedEmoji(data)) {
    codeToName.set(code, names[0]!);
    for (const n of names) if (!nameToCode.has(n)) nameToCode.set(n, code);
  }
  return { nameToCode, codeToName };
}

let tables: EmojiTables | undefined;

export function emojiTables(): EmojiTables {
  tables ??= build();
  return tables;
}
