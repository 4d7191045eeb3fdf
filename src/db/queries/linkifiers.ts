// Realm linkifiers, in their processing order.
import type { Selectable } from 'kysely';
import type { Conn, Tx } from '../database.ts';
import type { RealmLinkifiersTable } from '../schema.ts';

type Q = Conn | Tx;
export type LinkifierRow = Selectable<RealmLinkifiersTable>;

export async function linkifierRows(db: Q, realmId: number): Promise<LinkifierRow[]> {
  return db.selectFrom('realm_linkifiers').selectAll().where('realm_id', '=', realmId).orderBy('order').orderBy('id').execute();
}

export async function linkifierById(db: Q, realmId: number, id: number): Promise<LinkifierRow | undefined> {
  return db.selectFrom('realm_linkifiers').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}

export async function insertLinkifier(tx: Tx, values: Omit<LinkifierRow, 'id'>): Promise<number> {
  const row = await tx.insertInto('realm_linkifiers').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateLinkifier(tx: Tx, id: number, values: Partial<Omit<LinkifierRow, 'id' | 'realm_id'>>): Promise<void> {
  await tx.updateTable('realm_linkifiers').set(values).where('id', '=', id).execute();
}

export async function deleteLinkifier(tx: Tx, id: number): Promise<void> {
  await tx.deleteFrom('realm_linkifiers').where('id', '=', id).execute();
}
