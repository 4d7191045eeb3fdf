// user_group events: groups created, changed, deactivated, and their members and subgroups.
// Snapshot group `realm_user_groups`: active groups, system groups included.
import { groupsInRealm } from '../../db/queries/groups.ts';
import { groupsWithMembers, mentionDefaults } from '../../lib/groups.ts';
import { presentUserGroup, type UserGroupJson } from '../../presenters/user-group.ts';
import { defineEventType, type SnapshotGroup, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';

interface GroupJson {
  id: number;
  members: number[];
  direct_subgroup_ids: number[];
  [field: string]: unknown;
}

export type UserGroupEvent =
  | { type: 'user_group'; op: 'add'; group: UserGroupJson }
  | { type: 'user_group'; op: 'update'; group_id: number; data: Record<string, unknown> }
  | { type: 'user_group'; op: 'remove'; group_id: number }
  | { type: 'user_group'; op: 'add_members' | 'remove_members'; group_id: number; user_ids: number[] }
  | { type: 'user_group'; op: 'add_subgroups' | 'remove_subgroups'; group_id: number; direct_subgroup_ids: number[] };

/** Every field of every op, for the apply. */
type AnyUserGroupEvent = {
  op: UserGroupEvent['op'];
  group?: GroupJson;
  group_id?: number;
  data?: Record<string, unknown>;
  user_ids?: number[];
  direct_subgroup_ids?: number[];
};

export const userGroupsSnapshot: SnapshotGroup = async ({ app, realm }) => {
  const db = app.db.kysely;
  const groups = await groupsInRealm(db, realm.id);
  const defaults = await mentionDefaults(db, realm.id);
  return { realm_user_groups: (await groupsWithMembers(db, realm.id, groups)).map((g) => presentUserGroup(g, defaults)) };
};

const sorted = (ids: Iterable<number>): number[] => [...new Set(ids)].sort((a, b) => a - b);

function apply(state: State, event: BaseEvent): void {
  if (!Array.isArray(state.realm_user_groups)) return;
  const e = event as unknown as AnyUserGroupEvent;
  let groups = state.realm_user_groups as GroupJson[];
  if (e.op === 'add' && e.group) {
    groups = [...groups.filter((g) => g.id !== e.group!.id), { ...e.group }];
  } else if (e.op === 'remove') {
    groups = groups.filter((g) => g.id !== e.group_id);
  } else {
    const group = groups.find((g) => g.id === e.group_id);
    if (group) {
      if (e.op === 'update' && e.data) {
        // The snapshot lists active groups only: a deactivated one leaves it.
        if (e.data.deactivated === true) groups = groups.filter((g) => g.id !== group.id);
        else Object.assign(group, e.data);
      } else if (e.op === 'add_members') group.members = sorted([...group.members, ...(e.user_ids ?? [])]);
      else if (e.op === 'remove_members') group.members = group.members.filter((id) => !(e.user_ids ?? []).includes(id));
      else if (e.op === 'add_subgroups') group.direct_subgroup_ids = sorted([...group.direct_subgroup_ids, ...(e.direct_subgroup_ids ?? [])]);
      else if (e.op === 'remove_subgroups') {
        group.direct_subgroup_ids = group.direct_subgroup_ids.filter((id) => !(e.direct_subgroup_ids ?? []).includes(id));
      }
    }
  }
  state.realm_user_groups = groups.sort((a, b) => a.id - b.id);
}

export const userGroupEventType = defineEventType<UserGroupEvent>({ type: 'user_group', snapshot: { realm_user_groups: userGroupsSnapshot }, apply });
