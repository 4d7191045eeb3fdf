import type { Conn, Tx } from '../database.ts';
import type { Draft, DraftsTable } from '../schema.ts';
import type { Insertable } from 'kysely';

type Q = Conn | Tx;

/** The user's drafts, most recently edited first. */
export async function draftsOfUser(db: Q, userId: number): Promise<Draft[]> {
  return db.selectFrom('drafts').selectAll().where('user_id', '=', userId).orderBy('last_edit_time', 'desc').orderBy('id', 'desc').execute();
}

export async function draftOfUser(db: Q, userId: number, id: number): Promise<Draft | undefined> {
  return db.selectFrom('drafts').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

export async function insertDraft(tx: Tx, values: Insertable<DraftsTable>): Promise<Draft> {
  return tx.insertInto('drafts').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateDraft(tx: Tx, id: number, values: Omit<Insertable<DraftsTable>, 'user_id'>): Promise<Draft> {
  return tx.updateTable('drafts').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteDraft(tx: Tx, id: number): Promise<void> {
  await tx.deleteFrom('drafts').where('id', '=', id).execute();
}

/** Deletes every draft of the user; returns their IDs. */
export async function deleteDraftsOfUser(tx: Tx, userId: number): Promise<number[]> {
  const rows = await tx.deleteFrom('drafts').where('user_id', '=', userId).returning('id').execute();
  return rows.map((r) => r.id);
}
