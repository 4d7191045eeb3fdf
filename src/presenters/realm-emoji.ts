// The RealmEmoji object of the API, keyed by its ID as a string.
import type { RealmEmojiRow } from '../db/queries/realm-emoji.ts';
import type { RealmEmoji } from '../lib/markdown/types.ts';

export interface RealmEmojiJson {
  id: string;
  name: string;
  source_url: string;
  still_url: string | null;
  deactivated: boolean;
  author_id: number | null;
}

/** Realm-relative path of the image; clients resolve it against the realm URL. */
export const emojiSourcePath = (row: Pick<RealmEmojiRow, 'realm_id' | 'file_name'>): string =>
  `/user_avatars/${row.realm_id}/emoji/images/${row.file_name}`;

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

/** The Markdown renderer's view of a custom emoji (for message rendering). */
export function markdownRealmEmoji(row: RealmEmojiRow, realmUrl: string): RealmEmoji {
  return { id: String(row.id), name: row.name, sourceUrl: realmUrl + emojiSourcePath(row), deactivated: row.deactivated === 1 };
}
