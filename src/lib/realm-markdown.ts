// What message rendering needs from organization administration: the realm's custom emoji and
// linkifiers, in the Markdown renderer's shapes (see lib/markdown/types.ts).
import type { Conn, Tx } from '../db/database.ts';
import { linkifierRows } from '../db/queries/linkifiers.ts';
import { realmEmojiRows } from '../db/queries/realm-emoji.ts';
import { markdownLinkifier } from '../presenters/linkifier.ts';
import { markdownRealmEmoji } from '../presenters/realm-emoji.ts';
import type { Linkifier, RealmEmoji } from './markdown/types.ts';

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
