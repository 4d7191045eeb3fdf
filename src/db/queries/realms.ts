import type { Conn, Tx } from '../database.ts';
import type { Realm } from '../schema.ts';

export async function realmBySubdomain(db: Conn | Tx, subdomain: string): Promise<Realm | undefined> {
  return db.selectFrom('realms').selectAll().where('subdomain', '=', subdomain).executeTakeFirst();
}

export async function realmById(db: Conn | Tx, id: number): Promise<Realm | undefined> {
  return db.selectFrom('realms').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countRealms(db: Conn | Tx): Promise<number> {
  const row = await db.selectFrom('realms').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertRealm(
  tx: Tx,
  values: { name: string; subdomain: string; description: string; date_created: number; settings: string },
): Promise<number> {
  const row = await tx.insertInto('realms').values({ ...values, deactivated: 0 }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateRealmSettings(tx: Tx, realmId: number, settings: string): Promise<void> {
  await tx.updateTable('realms').set({ settings }).where('id', '=', realmId).execute();
}

/** A realm that must exist (named by a row that references it). */
export async function realmByIdOrThrow(db: Conn | Tx, id: number): Promise<Realm> {
  return db.selectFrom('realms').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
