// What message rendering needs from organization administration: the realm's custom emoji and
// linkifiers, in the Markdown renderer's shapes (see lib/markdown/types.ts).
import type { Conn, Tx } from '../db/database.ts';
import { linkifierRows, type LinkifierRow } from '../db/queries/linkifiers.ts';
import { realmEmojiRows, type RealmEmojiRow } from '../db/queries/realm-emoji.ts';
import type { Linkifier, RealmEmoji } from './markdown/types.ts';

/** Realm-relative path of the image; clients resolve it against the realm URL. */
export const emojiSourcePath = (row: Pick<RealmEmojiRow, 'realm_id' | 'file_name'>): string =>
  `/user_avatars/${row.realm_id}/emoji/images/${row.file_name}`;

/** The Markdown renderer's view of a custom emoji (for message rendering). */
export function markdownRealmEmoji(row: RealmEmojiRow, realmUrl: string): RealmEmoji {
  return { id: String(row.id), name: row.name, sourceUrl: realmUrl + emojiSourcePath(row), deactivated: row.deactivated === 1 };
}

export const markdownLinkifier = (row: LinkifierRow): Linkifier => ({ id: row.id, pattern: row.pattern, urlTemplate: row.url_template });

export interface RealmMarkdownData {
  /** Active custom emoji by name (a deactivated one no longer renders). */
  realmEmoji(name: string): RealmEmoji | undefined;
  linkifiers: Linkifier[];
}

export async function loadRealmMarkdownData(db: Conn | Tx, realmId: number, realmUrl: string): Promise<RealmMarkdownData> {
  const emoji = new Map<string, RealmEmoji>();
  for (const row of await realmEmojiRows(db, realmId)) if (!row.deactivated) emoji.set(row.name, markdownRealmEmoji(row, realmUrl));
  const linkifiers = (await linkifierRows(db, realmId)).map(markdownLinkifier);
  return { realmEmoji: (name) => emoji.get(name), linkifiers };
}
