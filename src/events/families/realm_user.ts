// realm_user events: users joining (or reactivated), changing, and being deactivated.
import { isModerator, roleFlags } from '../../lib/permissions.ts';
import type { UserJson } from '../../presenters/user.ts';
import type { ClientOptions, EventFamily, State } from '../family.ts';
import type { BaseEvent } from '../types.ts';
import { recomputeOwnPermissions } from './own-permissions.ts';

export type RealmUserEvent =
  | (BaseEvent & {
      type: 'realm_user';
      op: 'add';
      person: UserJson;
      /** Internal: the avatar comes from the external service (null for client_external_avatar). */
      avatar_external?: boolean;
    })
  | (BaseEvent & { type: 'realm_user'; op: 'update'; person: { user_id: number } & Record<string, unknown> })
  | (BaseEvent & { type: 'realm_user'; op: 'remove'; person: { user_id: number; full_name: string } });

type Person = { user_id: number } & Record<string, unknown>;

/** One custom profile field value of a user changed; a null value removes it. */
type ProfileFieldChange = { id: number; value: unknown; rendered_value?: string };

function setProfileValue(p: Person, field: ProfileFieldChange): void {
  const data = { ...(p.profile_data as Record<string, unknown> | undefined) };
  const { id, ...value } = field;
  if (field.value === null) delete data[String(id)];
  else data[String(id)] = value;
  p.profile_data = data;
}

const byId = (a: Person, b: Person): number => a.user_id - b.user_id;

function apply(state: State, event: BaseEvent, client: ClientOptions): void {
  const e = event as RealmUserEvent;
  if (e.op === 'update' && e.person.user_id === client.userId) {
    if (typeof e.person.full_name === 'string' && 'full_name' in state) state.full_name = e.person.full_name;
    if (typeof e.person.role === 'number' && 'is_admin' in state) {
      Object.assign(state, roleFlags(e.person.role), { is_moderator: isModerator({ role: e.person.role }) });
    }
    if (typeof e.person.avatar_source === 'string' && 'avatar_source' in state) {
      Object.assign(state, { avatar_source: e.person.avatar_source, avatar_url: e.person.avatar_url, avatar_url_medium: e.person.avatar_url_medium });
    }
  }
  if (!Array.isArray(state.realm_users)) return;
  let active = state.realm_users as Person[];
  let inactive = (state.realm_non_active_users ?? []) as Person[];
  const id = e.person.user_id;
  if (e.op === 'add') {
    active = [...active.filter((p) => p.user_id !== id), { ...e.person }];
    inactive = inactive.filter((p) => p.user_id !== id);
  } else if (e.op === 'remove') {
    const gone = active.find((p) => p.user_id === id);
    active = active.filter((p) => p.user_id !== id);
    if (gone) inactive = [...inactive.filter((p) => p.user_id !== id), { ...gone, is_active: false }];
  } else {
    const { custom_profile_field: field, ...changes } = e.person as Person & { custom_profile_field?: ProfileFieldChange };
    if (typeof changes.avatar_source === 'string') {
      // A user object has the avatar's URL (null for the external service when the client
      // computes those itself) and version, not its source or medium size.
      const source = changes.avatar_source;
      delete changes.avatar_source;
      delete changes.avatar_url_medium;
      if (source !== 'U' && client.clientExternalAvatar) changes.avatar_url = null;
    }
    for (const p of [...active, ...inactive]) {
      if (p.user_id !== id) continue;
      if (field) setProfileValue(p, field);
      Object.assign(p, changes);
      if (typeof e.person.role === 'number') Object.assign(p, roleFlags(e.person.role));
    }
  }
  state.realm_users = active.sort(byId);
  if ('realm_non_active_users' in state) state.realm_non_active_users = inactive.sort(byId);
  if (e.op === 'update' && id === client.userId && typeof e.person.role === 'number') recomputeOwnPermissions(state, client.userId);
}

function forClient(event: BaseEvent, client: ClientOptions): BaseEvent[] {
  const e = event as RealmUserEvent;
  if (e.op !== 'add' || e.avatar_external === undefined) return [event];
  const { avatar_external: external, ...rest } = e;
  return [external && client.clientExternalAvatar ? { ...rest, person: { ...rest.person, avatar_url: null } } : rest];
}

export const realmUserFamily: EventFamily = { forClient, apply };
