// Custom profile fields and users' profile_data, for responses, events and the snapshot.
import type { CustomProfileField } from '../db/schema.ts';
import type { Conn, Db, Tx } from '../db/database.ts';
import { profileValues, profileValuesOfUser, type ProfileValueRow } from '../db/queries/profile-fields.ts';

export interface ProfileFieldJson {
  id: number;
  type: number;
  order: number;
  name: string;
  hint: string;
  field_data: string;
  display_in_profile_summary?: boolean;
  required: boolean;
  editable_by_user: boolean;
}

export function presentProfileField(f: CustomProfileField): ProfileFieldJson {
  const json: ProfileFieldJson = {
    id: f.id,
    type: f.type,
    order: f.order,
    name: f.name,
    hint: f.hint,
    field_data: f.field_data,
    required: f.required === 1,
    editable_by_user: f.editable_by_user === 1,
  };
  // Like the reference, the flag is only sent when set.
  if (f.display_in_profile_summary) json.display_in_profile_summary = true;
  return json;
}

export type ProfileValueJson = { value: string; rendered_value?: string };

export function presentProfileValue(row: Pick<ProfileValueRow, 'value' | 'rendered_value'>): ProfileValueJson {
  return row.rendered_value === null ? { value: row.value } : { value: row.value, rendered_value: row.rendered_value };
}

/** profile_data of each user: field ID (as a string key) to its value. */
export function presentProfileData(rows: ProfileValueRow[]): Map<number, Record<string, ProfileValueJson>> {
  const out = new Map<number, Record<string, ProfileValueJson>>();
  for (const r of rows) {
    let data = out.get(r.user_id);
    if (!data) out.set(r.user_id, (data = {}));
    data[String(r.field_id)] = presentProfileValue(r);
  }
  return out;
}

/** One user's profile_data, for user JSON. */
export async function profileDataOfUser(db: Db, realmId: number, userId: number): Promise<Record<string, ProfileValueJson>> {
  return presentProfileData(await profileValuesOfUser(db, realmId, userId)).get(userId) ?? {};
}

/** profile_data of users (every user of the realm when `userIds` is null), for user JSON. */
export async function profileDataOfUsers(db: Conn | Tx, realmId: number, userIds: readonly number[] | null): Promise<Map<number, Record<string, ProfileValueJson>>> {
  return presentProfileData(await profileValues(db, realmId, userIds));
}
