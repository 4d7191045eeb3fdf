// custom_profile_fields events: the realm's whole list of profile fields. Users' values of a
// deleted field leave their profile_data.
import { profileFieldsInRealm } from '../../db/queries/profile-fields.ts';
import { FIELD_TYPES } from '../../lib/profile-fields.ts';
import { presentProfileField, type ProfileFieldJson } from '../../presenters/profile-field.ts';
import { defineEventType, type SnapshotGroup, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';

export type CustomProfileFieldsEvent = { type: 'custom_profile_fields'; fields: ProfileFieldJson[] };

/** The group `custom_profile_fields`: the fields and their types. */
export const customProfileFieldsSnapshot: SnapshotGroup = async ({ app, realm }) => ({
  custom_profile_fields: (await profileFieldsInRealm(app.db.kysely, realm.id)).map(presentProfileField),
  custom_profile_field_types: FIELD_TYPES,
});

function apply(state: State, event: BaseEvent): void {
  const fields = structuredClone(event.fields) as { id: number }[];
  if ('custom_profile_fields' in state) state.custom_profile_fields = fields;
  const ids = new Set(fields.map((f) => String(f.id)));
  for (const list of [state.realm_users, state.realm_non_active_users]) {
    if (!Array.isArray(list)) continue;
    for (const p of list as { profile_data?: Record<string, unknown> }[]) {
      if (!p.profile_data) continue;
      p.profile_data = Object.fromEntries(Object.entries(p.profile_data).filter(([id]) => ids.has(id)));
    }
  }
}

export const customProfileFieldsEventType = defineEventType<CustomProfileFieldsEvent>({
  type: 'custom_profile_fields',
  snapshot: { custom_profile_fields: customProfileFieldsSnapshot },
  apply,
});
