// Realm columns and stored overrides changed by organization administration.
import type { Conn, Dialect, Tx } from '../database.ts';
import type { Realm } from '../schema.ts';

type Q = Conn | Tx;

export async function updateRealmColumns(tx: Tx, realmId: number, values: { name?: string; description?: string; icon_source?: string; icon_version?: number }): Promise<void> {
  await tx.updateTable('realms').set(values).where('id', '=', realmId).execute();
}

export async function saveRealmSettingOverrides(tx: Tx, realmId: number, settings: string): Promise<void> {
  await tx.updateTable('realms').set({ settings }).where('id', '=', realmId).execute();
}

/** The realm's stored overrides of the new-user setting defaults. */
export async function realmUserDefaultOverrides(db: Q, realmId: number): Promise<Record<string, unknown>> {
  const row = await db.selectFrom('realm_user_defaults').select('settings').where('realm_id', '=', realmId).executeTakeFirst();
  if (!row) return {};
  try {
    const v: unknown = JSON.parse(row.settings);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function saveRealmUserDefaultOverrides(tx: Tx, realmId: number, settings: string): Promise<void> {
  const updated = await tx.updateTable('realm_user_defaults').set({ settings }).where('realm_id', '=', realmId).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) await tx.insertInto('realm_user_defaults').values({ realm_id: realmId, settings }).execute();
}

/**
 * The realm row, locked until the transaction ends on PostgreSQL, so that concurrent changes
 * to its settings JSON do not overwrite each other (SQLite runs one write transaction at a time).
 */
export async function lockRealm(tx: Tx, realmId: number, dialect: Dialect): Promise<Realm | undefined> {
  const q = tx.selectFrom('realms').selectAll().where('id', '=', realmId);
  return (dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
}
