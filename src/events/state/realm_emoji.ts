// The `realm_emoji` snapshot group: every custom emoji, deactivated ones included.
import { realmEmojiRows } from '../../db/queries/realm-emoji.ts';
import { presentRealmEmojiMap } from '../../presenters/realm-emoji.ts';
import type { SnapshotGroup } from './types.ts';

export const realmEmojiGroup: SnapshotGroup = async ({ app, realm }) => ({
  realm_emoji: presentRealmEmojiMap(await realmEmojiRows(app.db.kysely, realm.id)),
});
