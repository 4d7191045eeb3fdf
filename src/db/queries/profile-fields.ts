import type { Conn, Db, Tx } from '../database.ts';
import type { CustomProfileField } from '../schema.ts';

type Q = Conn | Tx;

export async function profileFieldsInRealm(db: Q, realmId: number): Promise<CustomProfileField[]> {
  return db.selectFrom('custom_profile_fields').selectAll().where('realm_id', '=', realmId).orderBy('order').orderBy('id').execute();
}

export async function profileFieldById(db: Q, realmId: number, id: number): Promise<CustomProfileField | undefined> {
  return db.selectFrom('custom_profile_fields').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}

export async function profileFieldByName(db: Q, realmId: number, name: string): Promise<CustomProfileField | undefined> {
  const rows = await db.selectFrom('custom_profile_fields').selectAll().where('realm_id', '=', realmId).execute();
  return rows.find((r) => r.name.toLowerCase() === name.toLowerCase());
}

export async function insertProfileField(
  tx: Tx,
  v: { realmId: number; name: string; hint: string; type: number; fieldData: string; summary: boolean; required: boolean; editableByUser: boolean },
): Promise<number> {
  const max = await tx
    .selectFrom('custom_profile_fields')
    .select((eb) => eb.fn.max('order').as('m'))
    .where('realm_id', '=', v.realmId)
    .executeTakeFirst();
  const row = await tx
    .insertInto('custom_profile_fields')
    .values({
      realm_id: v.realmId,
      name: v.name,
      hint: v.hint,
      type: v.type,
      field_data: v.fieldData,
      order: Number(max?.m ?? 0) + 1,
      display_in_profile_summary: v.summary ? 1 : 0,
      required: v.required ? 1 : 0,
      editable_by_user: v.editableByUser ? 1 : 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateProfileField(
  tx: Tx,
  id: number,
  values: Partial<Pick<CustomProfileField, 'name' | 'hint' | 'field_data' | 'display_in_profile_summary' | 'required' | 'editable_by_user' | 'order'>>,
): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await tx.updateTable('custom_profile_fields').set(values).where('id', '=', id).execute();
}

export async function deleteProfileField(tx: Tx, id: number): Promise<void> {
  await tx.deleteFrom('custom_profile_field_values').where('field_id', '=', id).execute();
  await tx.deleteFrom('custom_profile_fields').where('id', '=', id).execute();
}

export interface ProfileValueRow {
  field_id: number;
  user_id: number;
  value: string;
  rendered_value: string | null;
}

/** Values of the given users (all users of the realm when `userIds` is null). */
export async function profileValues(db: Q, realmId: number, userIds: readonly number[] | null): Promise<ProfileValueRow[]> {
  if (userIds !== null && userIds.length === 0) return [];
  let q = db
    .selectFrom('custom_profile_field_values')
    .innerJoin('custom_profile_fields', 'custom_profile_fields.id', 'custom_profile_field_values.field_id')
    .select([
      'custom_profile_field_values.field_id',
      'custom_profile_field_values.user_id',
      'custom_profile_field_values.value',
      'custom_profile_field_values.rendered_value',
    ])
    .where('custom_profile_fields.realm_id', '=', realmId);
  if (userIds !== null) q = q.where('custom_profile_field_values.user_id', 'in', [...userIds]);
  return q.orderBy('custom_profile_fields.order').execute();
}

/** One user's values (GET /users/me on every client's start): `profileValues` for one user. */
export async function profileValuesOfUser(db: Db, realmId: number, userId: number): Promise<ProfileValueRow[]> {
  const direct = db.direct();
  if (!direct) return profileValues(db.kysely, realmId, [userId]);
  return direct.all<ProfileValueRow>(
    'select v.field_id, v.user_id, v.value, v.rendered_value from custom_profile_field_values v ' +
      'join custom_profile_fields f on f.id = v.field_id where f.realm_id = ? and v.user_id = ? order by f."order"',
    [realmId, userId],
  );
}

export async function profileValue(db: Q, fieldId: number, userId: number): Promise<ProfileValueRow | undefined> {
  return db.selectFrom('custom_profile_field_values').selectAll().where('field_id', '=', fieldId).where('user_id', '=', userId).executeTakeFirst();
}

export async function setProfileValue(tx: Tx, row: ProfileValueRow, exists: boolean): Promise<void> {
  if (exists) {
    await tx
      .updateTable('custom_profile_field_values')
      .set({ value: row.value, rendered_value: row.rendered_value })
      .where('field_id', '=', row.field_id)
      .where('user_id', '=', row.user_id)
      .execute();
  } else {
    await tx.insertInto('custom_profile_field_values').values(row).execute();
  }
}

export async function deleteProfileValue(tx: Tx, fieldId: number, userId: number): Promise<void> {
  await tx.deleteFrom('custom_profile_field_values').where('field_id', '=', fieldId).where('user_id', '=', userId).execute();
}

/** Every user's value of one field. */
export async function profileValuesOfField(db: Q, fieldId: number): Promise<ProfileValueRow[]> {
  return db.selectFrom('custom_profile_field_values').selectAll().where('field_id', '=', fieldId).execute();
}
