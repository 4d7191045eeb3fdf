// The email domains of a realm's open sign-up (realm_domains).
import type { Conn, Tx } from '../database.ts';
import type { RealmDomain } from '../schema.ts';

type Q = Conn | Tx;

export async function realmDomains(db: Q, realmId: number): Promise<RealmDomain[]> {
  return db.selectFrom('realm_domains').selectAll().where('realm_id', '=', realmId).orderBy('domain').execute();
}

export async function realmDomain(db: Q, realmId: number, domain: string): Promise<RealmDomain | undefined> {
  return db.selectFrom('realm_domains').selectAll().where('realm_id', '=', realmId).where('domain', '=', domain).executeTakeFirst();
}

export async function insertRealmDomain(tx: Tx, realmId: number, domain: string, allowSubdomains: boolean): Promise<void> {
  await tx.insertInto('realm_domains').values({ realm_id: realmId, domain, allow_subdomains: allowSubdomains ? 1 : 0 }).execute();
}

export async function updateRealmDomain(tx: Tx, realmId: number, domain: string, allowSubdomains: boolean): Promise<void> {
  await tx.updateTable('realm_domains').set({ allow_subdomains: allowSubdomains ? 1 : 0 }).where('realm_id', '=', realmId).where('domain', '=', domain).execute();
}

export async function deleteRealmDomain(tx: Tx, realmId: number, domain: string): Promise<void> {
  await tx.deleteFrom('realm_domains').where('realm_id', '=', realmId).where('domain', '=', domain).execute();
}
