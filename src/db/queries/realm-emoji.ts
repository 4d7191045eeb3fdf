// Custom emoji rows. Deactivated emoji stay, so old reactions and messages keep their image.
import type { Selectable } from 'kysely';
import type { Conn, Tx } from '../database.ts';
import type { RealmEmojiTable } from '../schema.ts';

type Q = Conn | Tx;
export type RealmEmojiRow = Selectable<RealmEmojiTable>;

export async function realmEmojiRows(db: Q, realmId: number): Promise<RealmEmojiRow[]> {
  return db.selectFrom('realm_emoji').selectAll().where('realm_id', '=', realmId).orderBy('id').execute();
}

/** The active custom emoji of that name, if any. */
export async function activeRealmEmojiByName(db: Q, realmId: number, name: string): Promise<RealmEmojiRow | undefined> {
  return db
    .selectFrom('realm_emoji')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('name', '=', name)
    .where('deactivated', '=', 0)
    .executeTakeFirst();
}

export async function insertRealmEmoji(tx: Tx, values: Omit<RealmEmojiRow, 'id'>): Promise<number> {
  const row = await tx.insertInto('realm_emoji').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function deactivateRealmEmoji(tx: Tx, id: number): Promise<void> {
  await tx.updateTable('realm_emoji').set({ deactivated: 1 }).where('id', '=', id).execute();
}

/** The emoji row a served image file belongs to. */
export async function realmEmojiByFile(db: Q, realmId: number, fileName: string): Promise<RealmEmojiRow | undefined> {
  return db.selectFrom('realm_emoji').selectAll().where('realm_id', '=', realmId).where('file_name', '=', fileName).executeTakeFirst();
}

/** A custom emoji by its ID (reactions name custom emoji by ID). */
export async function realmEmojiById(db: Q, realmId: number, id: number): Promise<RealmEmojiRow | undefined> {
  return db.selectFrom('realm_emoji').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}
