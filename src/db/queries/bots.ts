// Bots: their users rows joined with their bot settings.
import type { Conn, Tx } from '../database.ts';
import type { User } from '../schema.ts';
import type { BotSettingsTable } from '../schema.ts';

type Q = Conn | Tx;
export type BotSettings = BotSettingsTable;

export interface BotRow {
  user: User;
  settings: BotSettings;
}

const emptySettings = (userId: number): BotSettings => ({
  user_id: userId,
  default_sending_stream_id: null,
  default_events_register_stream_id: null,
  default_all_public_streams: 0,
  service_base_url: null,
  service_interface: null,
  service_token: null,
});

/** Bots of the realm, or only those one user owns; deactivated bots included unless `activeOnly`. */
export async function botRows(db: Q, realmId: number, ownerId?: number, activeOnly = false): Promise<BotRow[]> {
  let q = db.selectFrom('users').selectAll().where('realm_id', '=', realmId).where('is_bot', '=', 1);
  if (ownerId !== undefined) q = q.where('bot_owner_id', '=', ownerId);
  if (activeOnly) q = q.where('is_active', '=', 1);
  const users = await q.orderBy('id').execute();
  if (users.length === 0) return [];
  const settings = await db.selectFrom('bot_settings').selectAll().where('user_id', 'in', users.map((u) => u.id)).execute();
  const byId = new Map(settings.map((s) => [s.user_id, s]));
  return users.map((user) => ({ user, settings: byId.get(user.id) ?? emptySettings(user.id) }));
}

export async function botSettings(db: Q, userId: number): Promise<BotSettings> {
  return (await db.selectFrom('bot_settings').selectAll().where('user_id', '=', userId).executeTakeFirst()) ?? emptySettings(userId);
}

export async function saveBotSettings(tx: Tx, values: BotSettings): Promise<void> {
  const { user_id: userId, ...rest } = values;
  const updated = await tx.updateTable('bot_settings').set(rest).where('user_id', '=', userId).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) await tx.insertInto('bot_settings').values(values).execute();
}

/** Names of streams by ID, for the bot fields that show stream names. */
export async function streamNamesByIds(db: Q, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('streams').select(['id', 'name']).where('id', 'in', [...ids]).where('deactivated', '=', 0).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function adminUserIds(db: Q, realmId: number): Promise<number[]> {
  const rows = await db.selectFrom('users').select('id').where('realm_id', '=', realmId).where('is_active', '=', 1).where('role', '<=', 200).orderBy('id').execute();
  return rows.map((r) => r.id);
}
