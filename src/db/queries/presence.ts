// User status, alert words and presence rows.
import type { Conn, Tx } from '../database.ts';
import type { Selectable } from 'kysely';
import type { PresenceTable, UserStatusTable } from '../schema.ts';

type Q = Conn | Tx;
export type UserStatusRow = Selectable<UserStatusTable>;
export type PresenceRow = Selectable<PresenceTable>;

export async function userStatus(db: Q, userId: number): Promise<UserStatusRow | undefined> {
  return db.selectFrom('user_status').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function userStatusesInRealm(db: Q, realmId: number): Promise<UserStatusRow[]> {
  return db
    .selectFrom('user_status')
    .innerJoin('users', 'users.id', 'user_status.user_id')
    .selectAll('user_status')
    .where('users.realm_id', '=', realmId)
    .where('users.is_active', '=', 1)
    .orderBy('user_status.user_id')
    .execute();
}

export async function saveUserStatus(tx: Tx, row: UserStatusRow, exists: boolean): Promise<void> {
  if (exists) await tx.updateTable('user_status').set(row).where('user_id', '=', row.user_id).execute();
  else await tx.insertInto('user_status').values(row).execute();
}

export async function realmEmojiById(db: Q, realmId: number, id: number): Promise<{ id: number; name: string; deactivated: number } | undefined> {
  return db.selectFrom('realm_emoji').select(['id', 'name', 'deactivated']).where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}

export async function realmEmojiByName(db: Q, realmId: number, name: string): Promise<{ id: number; name: string } | undefined> {
  return db
    .selectFrom('realm_emoji')
    .select(['id', 'name'])
    .where('realm_id', '=', realmId)
    .where('name', '=', name)
    .where('deactivated', '=', 0)
    .executeTakeFirst();
}

export async function alertWords(db: Q, userId: number): Promise<string[]> {
  const rows = await db.selectFrom('alert_words').select('word').where('user_id', '=', userId).orderBy('id').execute();
  return rows.map((r) => r.word);
}

export async function addAlertWords(tx: Tx, userId: number, words: readonly string[]): Promise<void> {
  if (words.length === 0) return;
  await tx.insertInto('alert_words').values(words.map((word) => ({ user_id: userId, word }))).execute();
}

export async function removeAlertWords(tx: Tx, userId: number, words: readonly string[]): Promise<void> {
  if (words.length === 0) return;
  await tx.deleteFrom('alert_words').where('user_id', '=', userId).where('word', 'in', [...words]).execute();
}

export async function presenceOf(db: Q, userId: number): Promise<PresenceRow | undefined> {
  return db.selectFrom('presence').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function savePresence(tx: Tx, row: PresenceRow, exists: boolean): Promise<void> {
  if (exists) await tx.updateTable('presence').set(row).where('user_id', '=', row.user_id).execute();
  else await tx.insertInto('presence').values(row).execute();
}

/** Presence of active users of the realm seen since `since`, with their emails and settings. */
export async function presenceInRealm(db: Q, realmId: number, since: number): Promise<(PresenceRow & { email: string; settings: string })[]> {
  return db
    .selectFrom('presence')
    .innerJoin('users', 'users.id', 'presence.user_id')
    .selectAll('presence')
    .select(['users.email', 'users.settings'])
    .where('presence.realm_id', '=', realmId)
    .where('presence.last_connected_time', '>=', since)
    .where('users.is_active', '=', 1)
    .where('users.is_bot', '=', 0)
    .orderBy('presence.user_id')
    .execute();
}
