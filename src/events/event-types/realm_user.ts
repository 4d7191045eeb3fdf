// realm_user events: users joining (or reactivated), changing, and being deactivated.
// The `realm_user` snapshot group: the realm's users, and the caller's own identity fields.
import { profileDataOfUsers } from '../../presenters/profile-field.ts';
import { usersInRealm } from '../../db/queries/users.ts';
import { avatarUrl } from '../../lib/avatar.ts';
import { isModerator, ownPermissions, roleFlags } from '../../lib/permissions.ts';
import { realmSettings, realmUrl } from '../../lib/realm.ts';
import { presentUser, type UserJson } from '../../presenters/user.ts';
import { defineEventType, type ClientOptions, type SnapshotGroup, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';
import { recomputeOwnPermissions } from '../apply/own-permissions.ts';

export type RealmUserEvent =
  | {
      type: 'realm_user';
      op: 'add';
      person: UserJson & { profile_data?: Record<string, unknown> };
      /** Internal: the avatar comes from the external service (null for client_external_avatar). */
      avatar_external?: boolean;
    }
  | { type: 'realm_user'; op: 'update'; person: { user_id: number } & Record<string, unknown> }
  | { type: 'realm_user'; op: 'remove'; person: { user_id: number; full_name: string } };

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

function forClient(e: RealmUserEvent, client: ClientOptions): BaseEvent[] {
  if (e.op !== 'add' || e.avatar_external === undefined) return [e];
  const { avatar_external: external, ...rest } = e;
  return [external && client.clientExternalAvatar ? { ...rest, person: { ...rest.person, avatar_url: null } } : rest];
}

export const realmUserGroup: SnapshotGroup = async ({ app, realm, user, clientExternalAvatar }) => {
  const url = realmUrl(app.config, realm);
  const users = await usersInRealm(app.db.kysely, realm.id, { includeInactive: true });
  const profiles = await profileDataOfUsers(app.db.kysely, realm.id, null);
  // Bots have no custom profile fields, so no profile_data.
  const present = (u: (typeof users)[number]) => {
    const json = presentUser(u, { clientExternalAvatar, realmUrl: url });
    return u.is_bot ? json : { ...json, profile_data: profiles.get(u.id) ?? {} };
  };
  const byId = (a: { user_id: number }, b: { user_id: number }): number => a.user_id - b.user_id;
  const out: Record<string, unknown> = {
    realm_users: users.filter((u) => u.is_active).map(present).sort(byId),
    realm_non_active_users: users.filter((u) => !u.is_active).map(present).sort(byId),
    cross_realm_bots: [],
  };
  if (user) {
    Object.assign(out, {
      user_id: user.id,
      email: user.email,
      delivery_email: user.delivery_email,
      full_name: user.full_name,
      ...roleFlags(user.role),
      is_moderator: isModerator(user),
      is_billing_admin: user.is_billing_admin === 1,
      avatar_source: user.avatar_source,
      avatar_url: avatarUrl(user, false, url),
      avatar_url_medium: avatarUrl(user, false, url, true),
      ...ownPermissions(user, realmSettings(realm), Math.floor(Date.now() / 1000)),
    });
  }
  return out;
};

export const realmUserEventType = defineEventType<RealmUserEvent>({ type: 'realm_user', forClient, snapshot: { realm_user: realmUserGroup }, apply });
