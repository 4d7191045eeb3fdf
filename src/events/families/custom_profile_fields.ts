// custom_profile_fields events: the realm's whole list of profile fields. Users' values of a
// deleted field leave their profile_data.
import type { EventFamily, State } from '../family.ts';
import type { BaseEvent } from '../types.ts';

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

export const customProfileFieldsFamily: EventFamily = { apply };
