// User groups: creating, renaming, deactivating, and changing members and subgroups. System
// groups are never changed here: their members follow from roles.
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/database.ts';
import type { Realm, User, UserGroup } from '../db/schema.ts';
import {
  addGroupMembers,
  addSubgroups,
  directMemberIds,
  directSubgroupIds,
  groupById,
  groupByName,
  groupIdsOfMember,
  groupUses,
  insertGroup,
  removeGroupMembers,
  removeSubgroups,
  supergroupIds,
  systemGroupByName,
  updateGroup,
} from '../db/queries/groups.ts';
import { activeUserIdsInRealm, usersByIds, usersInRealm } from '../db/queries/users.ts';
import { isModerator, may, ROLE, waitingPeriodOver } from '../lib/permissions.ts';
import { ApiError, badRequest, groupInUse } from '../lib/errors.ts';
import { groupClosure, groupsWithMembers, userInGroup } from '../lib/groups.ts';
import { LIMITS } from '../lib/limits.ts';
import { realmSettingsById } from '../lib/realm-settings.ts';
import { realmSettings } from '../lib/realm.ts';
import { presentUserGroup } from '../presenters/user-group.ts';
import type { UserGroupEvent } from '../events/event-types/user_group.ts';
import { runAction, type ActionScope } from './action.ts';

const insufficient = (): ApiError => badRequest('Insufficient permission');

/** Whether the realm's user_group_edit_policy lets the user create and change groups. */
export function canEditUserGroups(user: User, realm: Realm, now: number): boolean {
  return may(user, 'manageUserGroups', realmSettings(realm), now);
}

/** Prefixes that mention syntax and system groups use, so user groups may not start with them. */
const RESERVED_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

function checkGroupName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0) throw badRequest("User group name can't be empty!");
  if (name.length > LIMITS.maxUserGroupNameLength) throw badRequest(`User group name cannot exceed ${LIMITS.maxUserGroupNameLength} characters.`);
  const prefix = RESERVED_PREFIXES.find((p) => name.startsWith(p));
  if (prefix !== undefined) throw badRequest(`User group name cannot start with '${prefix}'.`);
  return name;
}

async function checkUniqueName(tx: Tx, realmId: number, name: string, exceptId?: number): Promise<void> {
  const existing = await groupByName(tx, realmId, name);
  if (existing && existing.id !== exceptId) throw badRequest(`User group '${name}' already exists.`);
}

/** A group the caller may change: exists in the realm, is not a system group, the policy allows, and they belong to it or moderate. */
async function accessGroupForUpdate(tx: Tx, caller: User, realm: Realm, groupId: number, now: number): Promise<UserGroup> {
  const group = await groupById(tx, realm.id, groupId);
  if (!group) throw badRequest('Invalid user group');
  if (group.is_system_group || !canEditUserGroups(caller, realm, now)) throw insufficient();
  // At our feature level only the group's members and moderators (and above) manage a group.
  if (!isModerator(caller) && !(await userInGroup(tx, caller, group.id, now))) throw insufficient();
  return group;
}

async function checkUserIds(tx: Tx, realmId: number, ids: readonly number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  const found = new Set((await usersByIds(tx, realmId, unique)).filter((u) => u.is_active).map((u) => u.id));
  const bad = unique.find((id) => !found.has(id));
  if (bad !== undefined) throw badRequest(`Invalid user ID: ${bad}`);
  return unique;
}

async function checkGroupIds(tx: Tx, realmId: number, ids: readonly number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  for (const id of unique) {
    const g = await groupById(tx, realmId, id);
    if (!g || g.deactivated) throw badRequest(`Invalid user group ID: ${id}`);
  }
  return unique;
}

/** The group that may mention this one: an active group, not role:internet or role:owners. */
async function checkMentionGroup(tx: Tx, realmId: number, id: number): Promise<number> {
  const g = await groupById(tx, realmId, id);
  if (!g || g.deactivated) throw badRequest('Invalid user group');
  if (g.is_system_group && (g.name === 'role:internet' || g.name === 'role:owners')) {
    throw badRequest(`'can_mention_group' setting cannot be set to '${g.name}' group.`);
  }
  return g.id;
}

async function emitToRealm(scope: ActionScope, realmId: number, event: UserGroupEvent): Promise<void> {
  scope.emit(event, await activeUserIdsInRealm(scope.tx, realmId));
}

export interface NewGroupInput {
  name: string;
  description: string;
  members: number[];
  subgroups: number[];
  canMentionGroup: number | undefined;
}

export async function checkCreateUserGroup(app: AppContext, caller: User, realm: Realm, input: NewGroupInput): Promise<number> {
  const name = checkGroupName(input.name);
  return runAction(app, async (scope) => {
    if (!canEditUserGroups(caller, realm, scope.now)) throw insufficient();
    await checkUniqueName(scope.tx, realm.id, name);
    const members = await checkUserIds(scope.tx, realm.id, input.members);
    const subgroups = await checkGroupIds(scope.tx, realm.id, input.subgroups);
    const everyone = (await systemGroupByName(scope.tx, realm.id, 'role:everyone'))!;
    const nobody = (await systemGroupByName(scope.tx, realm.id, 'role:nobody'))!;
    const mention = input.canMentionGroup === undefined ? everyone.id : await checkMentionGroup(scope.tx, realm.id, input.canMentionGroup);
    const id = await insertGroup(scope.tx, { realmId: realm.id, name, description: input.description, now: scope.now, creatorId: caller.id, canMentionGroup: mention });
    await addGroupMembers(scope.tx, id, members);
    await addSubgroups(scope.tx, id, subgroups);
    const group = (await groupById(scope.tx, realm.id, id))!;
    const [full] = await groupsWithMembers(scope.tx, realm.id, [group], scope.now);
    await emitToRealm(scope, realm.id, { type: 'user_group', op: 'add', group: presentUserGroup(full!, { everyone: everyone.id, nobody: nobody.id }) });
    return id;
  });
}

export interface GroupChanges {
  name?: string;
  description?: string;
  canMentionGroup?: number;
}

export async function checkUpdateUserGroup(app: AppContext, caller: User, realm: Realm, groupId: number, changes: GroupChanges): Promise<void> {
  if (changes.name === undefined && changes.description === undefined && changes.canMentionGroup === undefined) {
    throw badRequest('No new data supplied');
  }
  const name = changes.name === undefined ? undefined : checkGroupName(changes.name);
  await runAction(app, async (scope) => {
    const group = await accessGroupForUpdate(scope.tx, caller, realm, groupId, scope.now);
    const data: { name?: string; description?: string; can_mention_group?: number } = {};
    if (name !== undefined && name !== group.name) {
      await checkUniqueName(scope.tx, realm.id, name, group.id);
      data.name = name;
    }
    if (changes.description !== undefined && changes.description !== group.description) data.description = changes.description;
    if (changes.canMentionGroup !== undefined) {
      const mention = await checkMentionGroup(scope.tx, realm.id, changes.canMentionGroup);
      if (mention !== group.can_mention_group) data.can_mention_group = mention;
    }
    if (Object.keys(data).length === 0) return;
    await updateGroup(scope.tx, group.id, data);
    await emitToRealm(scope, realm.id, { type: 'user_group', op: 'update', group_id: group.id, data });
  });
}

export async function checkDeactivateUserGroup(app: AppContext, caller: User, realm: Realm, groupId: number): Promise<void> {
  await runAction(app, async (scope) => {
    const group = await accessGroupForUpdate(scope.tx, caller, realm, groupId, scope.now);
    if (group.deactivated) throw badRequest('User group is already deactivated.');
    const uses = await groupUses(scope.tx, realm.id, group.id);
    const objections: Record<string, unknown>[] = [];
    for (const id of uses.streamIds) objections.push({ type: 'channel', channel_id: id, settings: ['can_remove_subscribers_group'] });
    for (const id of uses.groupIds) objections.push({ type: 'user_group', group_id: id, settings: ['can_mention_group'] });
    for (const id of await supergroupIds(scope.tx, group.id)) {
      const parent = await groupById(scope.tx, realm.id, id);
      if (parent && !parent.deactivated) objections.push({ type: 'user_group', group_id: id, settings: [] });
    }
    if (objections.length > 0) {
      throw groupInUse(objections);
    }
    await updateGroup(scope.tx, group.id, { deactivated: 1 });
    await emitToRealm(scope, realm.id, { type: 'user_group', op: 'update', group_id: group.id, data: { deactivated: true } });
  });
}

export interface MembershipChanges {
  add: number[];
  delete: number[];
  addSubgroups: number[];
  deleteSubgroups: number[];
}

export async function checkUpdateGroupMembership(app: AppContext, caller: User, realm: Realm, groupId: number, changes: MembershipChanges): Promise<void> {
  const nothing = changes.add.length + changes.delete.length + changes.addSubgroups.length + changes.deleteSubgroups.length === 0;
  if (nothing) throw badRequest('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
  await runAction(app, async (scope) => {
    const group = await accessGroupForUpdate(scope.tx, caller, realm, groupId, scope.now);
    if (changes.add.length > 0 || changes.delete.length > 0) await changeMembers(scope, realm, group, changes.add, changes.delete);
    if (changes.addSubgroups.length > 0 || changes.deleteSubgroups.length > 0) {
      await changeSubgroups(scope, realm, group, changes.addSubgroups, changes.deleteSubgroups);
    }
  });
}

async function changeMembers(scope: ActionScope, realm: Realm, group: UserGroup, add: number[], del: number[]): Promise<void> {
  const current = new Set((await directMemberIds(scope.tx, [group.id])).get(group.id) ?? []);
  const toAdd = await checkUserIds(scope.tx, realm.id, add);
  const toDelete = [...new Set(del)];
  for (const id of toAdd) if (current.has(id)) throw badRequest(`User ${id} is already a member of this group`);
  for (const id of toDelete) if (!current.has(id)) throw badRequest(`There is no member '${id}' in this user group`);
  await removeGroupMembers(scope.tx, group.id, toDelete);
  await addGroupMembers(scope.tx, group.id, toAdd);
  if (toAdd.length > 0) await emitToRealm(scope, realm.id, { type: 'user_group', op: 'add_members', group_id: group.id, user_ids: toAdd });
  if (toDelete.length > 0) await emitToRealm(scope, realm.id, { type: 'user_group', op: 'remove_members', group_id: group.id, user_ids: toDelete });
}

async function changeSubgroups(scope: ActionScope, realm: Realm, group: UserGroup, add: number[], del: number[]): Promise<void> {
  const current = new Set((await directSubgroupIds(scope.tx, [group.id])).get(group.id) ?? []);
  const toAdd = await checkGroupIds(scope.tx, realm.id, add);
  const toDelete = [...new Set(del)];
  for (const id of toDelete) {
    if (!current.has(id)) throw badRequest(`User group ${id} is not a subgroup of this group.`);
  }
  for (const id of toAdd) {
    if (current.has(id)) throw badRequest(`User group ${id} is already a subgroup of this group.`);
    // A group may not contain itself, directly or through its subgroups.
    if ((await groupClosure(scope.tx, id)).has(group.id)) throw badRequest(`User group ${id} is already a supergroup of this group.`);
  }
  await removeSubgroups(scope.tx, group.id, toDelete);
  await addSubgroups(scope.tx, group.id, toAdd);
  if (toAdd.length > 0) {
    await emitToRealm(scope, realm.id, { type: 'user_group', op: 'add_subgroups', group_id: group.id, direct_subgroup_ids: toAdd });
  }
  if (toDelete.length > 0) {
    await emitToRealm(scope, realm.id, { type: 'user_group', op: 'remove_subgroups', group_id: group.id, direct_subgroup_ids: toDelete });
  }
}

/** The system groups a role puts a user in directly (see lib/groups: members follow roles). */
function directSystemGroups(role: number, full: boolean): string[] {
  switch (role) {
    case ROLE.OWNER:
      return ['role:owners'];
    case ROLE.ADMINISTRATOR:
      return ['role:administrators'];
    case ROLE.MODERATOR:
      return ['role:moderators'];
    case ROLE.MEMBER:
      return full ? ['role:fullmembers', 'role:members'] : ['role:members'];
    default:
      return ['role:everyone'];
  }
}

/**
 * Tells clients how a role change moved the user between system groups, as the reference does
 * with add_members and remove_members events. Call inside the action that changes the role.
 */
export async function emitRoleGroupChange(scope: ActionScope, user: User, oldRole: number, newRole: number): Promise<void> {
  const settings = await realmSettingsById(scope.tx, user.realm_id);
  const full = waitingPeriodOver(user, settings.waiting_period_threshold, scope.now);
  const before = directSystemGroups(oldRole, full);
  const after = directSystemGroups(newRole, full);
  for (const [names, op] of [[before.filter((n) => !after.includes(n)), 'remove_members'], [after.filter((n) => !before.includes(n)), 'add_members']] as const) {
    for (const name of names) {
      const group = await systemGroupByName(scope.tx, user.realm_id, name);
      if (group) await emitToRealm(scope, user.realm_id, { type: 'user_group', op, group_id: group.id, user_ids: [user.id] });
    }
  }
}

/**
 * Group lists show active users only, so a user who joins, is deactivated or comes back enters
 * or leaves every group they directly belong to (by role, or as a listed member).
 */
export async function emitActivationGroupChange(scope: ActionScope, user: User, active: boolean): Promise<void> {
  const settings = await realmSettingsById(scope.tx, user.realm_id);
  const full = waitingPeriodOver(user, settings.waiting_period_threshold, scope.now);
  const ids: number[] = [];
  for (const name of directSystemGroups(user.role, full)) {
    const group = await systemGroupByName(scope.tx, user.realm_id, name);
    if (group) ids.push(group.id);
  }
  ids.push(...(await groupIdsOfMember(scope.tx, user.id)));
  const op = active ? 'add_members' : 'remove_members';
  for (const groupId of ids) await emitToRealm(scope, user.realm_id, { type: 'user_group', op, group_id: groupId, user_ids: [user.id] });
}

/**
 * A new waiting period moves members in or out of role:fullmembers; clients hear it as
 * add_members and remove_members, as for a role change. Call inside the settings action.
 */
export async function emitFullMembersChange(scope: ActionScope, realmId: number, oldDays: number, newDays: number): Promise<void> {
  const group = await systemGroupByName(scope.tx, realmId, 'role:fullmembers');
  if (!group || oldDays === newDays) return;
  const members = (await usersInRealm(scope.tx, realmId)).filter((u) => u.role === ROLE.MEMBER);
  const full = (u: User, days: number): boolean => waitingPeriodOver(u, days, scope.now);
  const gained = members.filter((u) => !full(u, oldDays) && full(u, newDays)).map((u) => u.id);
  const lost = members.filter((u) => full(u, oldDays) && !full(u, newDays)).map((u) => u.id);
  if (lost.length > 0) await emitToRealm(scope, realmId, { type: 'user_group', op: 'remove_members', group_id: group.id, user_ids: lost });
  if (gained.length > 0) await emitToRealm(scope, realmId, { type: 'user_group', op: 'add_members', group_id: group.id, user_ids: gained });
}
