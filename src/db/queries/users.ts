import type { Conn, Db, Dialect, Tx } from '../database.ts';
import type { NewUser, User, UserUpdate } from '../schema.ts';
import { inChunks, LIST_CHUNK } from '../chunks.ts';
import { profileValuesOfUser, type ProfileValueRow } from './profile-fields.ts';

type Q = Conn | Tx;

export async function userByApiKey(db: Q, apiKey: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('api_key', '=', apiKey).executeTakeFirst();
}

export async function userById(db: Q, realmId: number, id: number): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}

/**
 * A user's row, locked until the transaction ends on PostgreSQL: actions that read and rewrite a
 * user's own rows (settings, status, presence, alert words) take it first, so that concurrent
 * requests of one user run one after the other (SQLite runs one write transaction at a time).
 */
export async function lockUser(tx: Tx, realmId: number, id: number, dialect: Dialect): Promise<User | undefined> {
  const q = tx.selectFrom('users').selectAll().where('realm_id', '=', realmId).where('id', '=', id);
  return (dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
}

/** By API email or real email, case-insensitively (emails are stored in lower case). */
export async function userByEmail(db: Q, realmId: number, email: string): Promise<User | undefined> {
  const e = email.toLowerCase();
  return db
    .selectFrom('users')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where((eb) => eb.or([eb('email', '=', e), eb('delivery_email', '=', e)]))
    .executeTakeFirst();
}

export async function usersByIds(db: Q, realmId: number, ids: readonly number[]): Promise<User[]> {
  const rows = await inChunks(ids, (part) => db.selectFrom('users').selectAll().where('realm_id', '=', realmId).where('id', 'in', part).orderBy('id').execute());
  return ids.length > LIST_CHUNK ? rows.sort((a, b) => a.id - b.id) : rows;
}

export async function usersByEmails(db: Q, realmId: number, emails: readonly string[]): Promise<User[]> {
  const lower = [...new Set(emails.map((e) => e.toLowerCase()))];
  const rows = await inChunks(lower, (part) =>
    db
      .selectFrom('users')
      .selectAll()
      .where('realm_id', '=', realmId)
      .where((eb) => eb.or([eb('email', 'in', part), eb('delivery_email', 'in', part)]))
      .orderBy('id')
      .execute(),
  );
  if (lower.length <= LIST_CHUNK) return rows;
  // A user matched in two slices (by email and by delivery email) is listed once.
  return [...new Map(rows.map((u) => [u.id, u])).values()].sort((a, b) => a.id - b.id);
}

export async function usersInRealm(db: Q, realmId: number, opts: { includeInactive?: boolean } = {}): Promise<User[]> {
  let q = db.selectFrom('users').selectAll().where('realm_id', '=', realmId);
  if (!opts.includeInactive) q = q.where('is_active', '=', 1);
  return q.orderBy('id').execute();
}

export async function activeUserIdsInRealm(db: Q, realmId: number): Promise<number[]> {
  const rows = await db.selectFrom('users').select('id').where('realm_id', '=', realmId).where('is_active', '=', 1).orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** Role and join date of the realm's active users, by ID (system groups' members follow from them). */
export async function activeUserRoles(db: Q, realmId: number): Promise<{ id: number; role: number; date_joined: number }[]> {
  return db.selectFrom('users').select(['id', 'role', 'date_joined']).where('realm_id', '=', realmId).where('is_active', '=', 1).orderBy('id').execute();
}

export async function countActiveOwners(db: Q, realmId: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('realm_id', '=', realmId)
    .where('role', '=', 100)
    .where('is_active', '=', 1)
    .where('is_bot', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertUser(tx: Tx, values: NewUser): Promise<number> {
  const row = await tx.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(tx: Tx, userId: number, values: UserUpdate): Promise<void> {
  await tx.updateTable('users').set(values).where('id', '=', userId).execute();
}

export async function maxMessageIdForUser(db: Db, userId: number): Promise<number> {
  const direct = db.direct();
  if (direct) return direct.get<{ m: number | null }>('select max(message_id) as m from user_messages where user_id = ?', [userId])?.m ?? -1;
  const row = await db.kysely
    .selectFrom('user_messages')
    .select((eb) => eb.fn.max('message_id').as('m'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.m ?? -1);
}

/**
 * What `GET /users/me` reads besides the user: their newest message ID and, unless `withProfile`
 * is false (bots), their profile values. One round trip on PostgreSQL (a prepared statement).
 */
export async function maxMessageIdAndProfile(db: Db, realmId: number, userId: number, withProfile: boolean): Promise<{ maxMessageId: number; profile: ProfileValueRow[] }> {
  if (db.prepared === null || !withProfile) {
    const maxMessageId = await maxMessageIdForUser(db, userId);
    return { maxMessageId, profile: withProfile ? await profileValuesOfUser(db, realmId, userId) : [] };
  }
  type Row = { max_id: number | null } & { [K in keyof ProfileValueRow]: ProfileValueRow[K] | null };
  // One row at least (the newest message ID), joined with each profile value there is.
  const rows = await db.prepared<Row>(
    'select (select max(message_id) from user_messages where user_id = $1) as max_id, v.field_id, v.user_id, v.value, v.rendered_value ' +
      'from (select 1) as one left join (custom_profile_field_values v join custom_profile_fields f on f.id = v.field_id and f.realm_id = $2) ' +
      'on v.user_id = $1 order by f."order"',
    [userId, realmId],
  );
  const profile = rows.filter((r): r is Row & ProfileValueRow => r.field_id !== null);
  return {
    maxMessageId: rows[0]?.max_id ?? -1,
    profile: profile.map(({ field_id, user_id, value, rendered_value }) => ({ field_id, user_id, value, rendered_value })),
  };
}

/** A user that must exist (just inserted, or named by a row that references it). */
export async function userByIdOrThrow(db: Q, id: number): Promise<User> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The email of a user that must exist. */
export async function userEmailById(db: Q, id: number): Promise<string> {
  return (await db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email;
}
