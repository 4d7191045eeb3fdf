// realm_emoji events: the realm's whole emoji map, deactivated emoji included.
import { realmEmojiRows } from '../../db/queries/realm-emoji.ts';
import { presentRealmEmojiMap, type RealmEmojiJson } from '../../presenters/realm-emoji.ts';
import { replaceApply } from '../apply/replace.ts';
import { defineEventType, type SnapshotGroup } from '../event-type.ts';

export type RealmEmojiEvent = { type: 'realm_emoji'; op: 'update'; realm_emoji: Record<string, RealmEmojiJson> };

export const realmEmojiGroup: SnapshotGroup = async ({ app, realm }) => ({
  realm_emoji: presentRealmEmojiMap(await realmEmojiRows(app.db.kysely, realm.id)),
});

export const realmEmojiEventType = defineEventType<RealmEmojiEvent>({
  type: 'realm_emoji',
  snapshot: { realm_emoji: realmEmojiGroup },
  apply: replaceApply('realm_emoji', 'realm_emoji'),
});
