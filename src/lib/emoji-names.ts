// How the Unicode emoji of emoji-datasource are named: the names the server accepts and the web
// client offers. Shared as is by the server's tables (src/lib/markdown/emoji-data.ts) and the web
// client's picker and typeahead (web/lib/emoji-data.ts, bundled by Vite): so it imports nothing.

/** The fields of an emoji-datasource entry that its names come from. */
export interface DatasourceNames {
  unified: string;
  name: string | null;
  short_names: string[];
  category: string;
}

// code -> names (canonical first). Only where the reference's name differs from the data set's,
// so that the common names clients send (`:smile:`, `:poop:`, `:cat:` ...) mean the same emoji as
// in the reference dialect.
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

/** An entry's code: lowercase hex code points joined by '-', without the FE0F variation selector. */
export function datasourceCode(entry: { unified: string }): string {
  return entry.unified.toLowerCase().replace(/-fe0f/g, '');
}

function fallbackName(entry: DatasourceNames): string | undefined {
  if (!entry.name) return undefined;
  return entry.name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
}

/**
 * Each emoji of the data set with its code and names (canonical first), in the data set's order:
 * skin tone modifiers on their own (not emoji names in the reference dialect) and entries left
 * without a name are skipped. A name may come twice (two entries' short names); the first claims it.
 */
export function* namedEmoji<E extends DatasourceNames>(data: Iterable<E>): Generator<{ code: string; names: string[]; entry: E }> {
  const claimed = new Set(Object.values(NAME_OVERRIDES).flat());
  for (const entry of data) {
    if (entry.category === 'Component') continue;
    const code = datasourceCode(entry);
    let names = NAME_OVERRIDES[code];
    if (!names) {
      names = entry.short_names.map((n) => n.replace(/-/g, '_')).filter((n) => !claimed.has(n));
      if (names.length === 0) {
        const fb = fallbackName(entry);
        if (fb && !claimed.has(fb)) names = [fb];
      }
    }
    if (names.length > 0) yield { code, names, entry };
  }
}
