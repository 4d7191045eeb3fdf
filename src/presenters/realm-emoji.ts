// The RealmEmoji object of the API, keyed by its ID as a string.
import type { RealmEmojiRow } from '../db/queries/realm-emoji.ts';
import { emojiSourcePath } from '../lib/realm-markdown.ts';

export interface RealmEmojiJson {
  id: string;
  name: string;
  source_url: string;
  still_url: string | null;
  deactivated: boolean;
  author_id: number | null;
}

export function presentRealmEmoji(row: RealmEmojiRow): RealmEmojiJson {
  return {
    id: String(row.id),
    name: row.name,
    source_url: emojiSourcePath(row),
    still_url: null,
    deactivated: row.deactivated === 1,
    author_id: row.author_id,
  };
}

export function presentRealmEmojiMap(rows: RealmEmojiRow[]): Record<string, RealmEmojiJson> {
  const out: Record<string, RealmEmojiJson> = {};
  for (const r of rows) out[String(r.id)] = presentRealmEmoji(r);
  return out;
}
