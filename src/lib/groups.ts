// Membership of user groups, system groups included (their members follow from roles).
import type { Conn, Tx } from '../db/database.ts';
import type { User, UserGroup } from '../db/schema.ts';
import {
  directMemberIds,
  directSubgroupIds,
  groupById,
  groupByIdInAnyRealm,
  isDirectMember,
  subgroupIdsOf,
  systemGroupByName,
  systemGroupIdNames,
} from '../db/queries/groups.ts';
import { activeUserRoles } from '../db/queries/users.ts';
import { isFullMember, isGuest, ROLE, waitingPeriodOver } from './permissions.ts';
import { realmSettingsById } from './realm-settings.ts';

type Q = Conn | Tx;

async function systemGroupHas(db: Q, group: UserGroup, user: User, now: number): Promise<boolean> {
  switch (group.name) {
    case 'role:nobody':
      return false;
    case 'role:internet':
    case 'role:everyone':
      return true;
    case 'role:fullmembers': {
      if (isGuest(user)) return false;
      return isFullMember(user, (await realmSettingsById(db, user.realm_id)).waiting_period_threshold, now);
    }
    default:
      return group.role_limit !== null && user.role <= group.role_limit;
  }
}

/** Whether the user belongs to the group, directly, through a role, or through subgroups. */
export async function userInGroup(db: Q, user: User, groupId: number, now = Math.floor(Date.now() / 1000)): Promise<boolean> {
  const seen = new Set<number>();
  const queue = [groupId];
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    const group = await groupById(db, user.realm_id, id);
    if (!group || group.deactivated) continue;
    if (group.is_system_group) {
      if (await systemGroupHas(db, group, user, now)) return true;
      continue;
    }
    if (await isDirectMember(db, id, user.id)) return true;
    queue.push(...(await subgroupIdsOf(db, id)));
  }
  return false;
}

/** The system groups nest: each one's direct subgroup is the next more privileged one. */
const SYSTEM_SUBGROUP: Record<string, string> = {
  'role:administrators': 'role:owners',
  'role:moderators': 'role:administrators',
  'role:fullmembers': 'role:moderators',
  'role:members': 'role:fullmembers',
  'role:everyone': 'role:members',
  'role:internet': 'role:everyone',
};

/** The role whose users are direct members of each system group. */
const SYSTEM_ROLE: Record<string, number> = {
  'role:owners': ROLE.OWNER,
  'role:administrators': ROLE.ADMINISTRATOR,
  'role:moderators': ROLE.MODERATOR,
  'role:fullmembers': ROLE.MEMBER,
  'role:members': ROLE.MEMBER,
  'role:everyone': ROLE.GUEST,
};

export interface GroupWithMembers {
  group: UserGroup;
  members: number[];
  subgroups: number[];
}

/**
 * Direct members and subgroups of each group. System groups' members follow from roles (only
 * the users of the group's own role; more privileged users come through the nested subgroup).
 */
export async function groupsWithMembers(db: Q, realmId: number, groups: UserGroup[], now = Math.floor(Date.now() / 1000)): Promise<GroupWithMembers[]> {
  const plain = groups.filter((g) => !g.is_system_group).map((g) => g.id);
  const members = await directMemberIds(db, plain);
  const subgroups = await directSubgroupIds(db, plain);
  const hasSystem = groups.some((g) => g.is_system_group);
  const users = hasSystem
    ? await activeUserRoles(db, realmId)
    : [];
  const systemIds = new Map<string, number>();
  if (hasSystem) {
    for (const r of await systemGroupIdNames(db, realmId)) systemIds.set(r.name, r.id);
  }
  const waitingDays = hasSystem ? (await realmSettingsById(db, realmId)).waiting_period_threshold : 0;
  return groups.map((group) => {
    if (!group.is_system_group) return { group, members: members.get(group.id) ?? [], subgroups: subgroups.get(group.id) ?? [] };
    const role = SYSTEM_ROLE[group.name];
    const full = group.name === 'role:fullmembers';
    const ids = role === undefined ? [] : users.filter((u) => u.role === role && (!full || waitingPeriodOver(u, waitingDays, now))).map((u) => u.id);
    const sub = SYSTEM_SUBGROUP[group.name];
    const subId = sub === undefined ? undefined : systemIds.get(sub);
    return { group, members: ids, subgroups: subId === undefined ? [] : [subId] };
  });
}

/** Every group reachable from `groupId` through subgroups, itself included. */
export async function groupClosure(db: Q, groupId: number): Promise<Set<number>> {
  const seen = new Set<number>();
  const queue = [groupId];
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...(await subgroupIdsOf(db, id)));
  }
  return seen;
}

/** Every member and subgroup reached from a group through its subgroups (system ones included). */
export async function expandGroup(db: Q, realmId: number, group: UserGroup): Promise<{ members: number[]; subgroups: number[] }> {
  const members = new Set<number>();
  const subgroups = new Set<number>();
  const seen = new Set<number>([group.id]);
  let level: UserGroup[] = [group];
  while (level.length > 0) {
    const next: UserGroup[] = [];
    for (const g of await groupsWithMembers(db, realmId, level)) {
      for (const m of g.members) members.add(m);
      for (const id of g.subgroups) {
        subgroups.add(id);
        if (seen.has(id)) continue;
        seen.add(id);
        const sub = await groupByIdInAnyRealm(db, id);
        if (sub) next.push(sub);
      }
    }
    level = next;
  }
  const sorted = (s: Set<number>): number[] => [...s].sort((a, b) => a - b);
  return { members: sorted(members), subgroups: sorted(subgroups) };
}

/** The groups that may mention a group with no stored setting (see presenters/user-group). */
export async function mentionDefaults(db: Q, realmId: number): Promise<{ everyone: number; nobody: number }> {
  const everyone = await systemGroupByName(db, realmId, 'role:everyone');
  const nobody = await systemGroupByName(db, realmId, 'role:nobody');
  return { everyone: everyone?.id ?? 0, nobody: nobody?.id ?? 0 };
}
