import type { Conn, Tx } from '../database.ts';
import type { UserGroup } from '../schema.ts';

type Q = Conn | Tx;

/** The reference's system groups, and the highest role number each takes in. */
export const SYSTEM_GROUPS = [
  { name: 'role:owners', description: 'Owners of this organization', roleLimit: 100 },
  { name: 'role:administrators', description: 'Administrators of this organization, including owners', roleLimit: 200 },
  { name: 'role:moderators', description: 'Moderators of this organization, including administrators', roleLimit: 300 },
  { name: 'role:fullmembers', description: 'Members of this organization, not including new accounts and guests', roleLimit: 400 },
  { name: 'role:members', description: 'Members of this organization, not including guests', roleLimit: 400 },
  { name: 'role:everyone', description: 'Everyone in this organization, including guests', roleLimit: 600 },
  { name: 'role:internet', description: 'Everyone on the Internet', roleLimit: 600 },
  { name: 'role:nobody', description: 'Nobody', roleLimit: 0 },
] as const;

export interface SystemGroupIds {
  owners: number;
  administrators: number;
  moderators: number;
  fullmembers: number;
  members: number;
  everyone: number;
  internet: number;
  nobody: number;
}

export async function insertSystemGroups(tx: Tx, realmId: number, now: number): Promise<SystemGroupIds> {
  const ids: Record<string, number> = {};
  for (const g of SYSTEM_GROUPS) {
    const row = await tx
      .insertInto('user_groups')
      .values({
        realm_id: realmId,
        name: g.name,
        description: g.description,
        is_system_group: 1,
        deactivated: 0,
        role_limit: g.roleLimit,
        date_created: now,
        creator_id: null,
        can_mention_group: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids[g.name.slice('role:'.length)] = row.id;
  }
  return ids as unknown as SystemGroupIds;
}

export async function systemGroupByName(db: Q, realmId: number, name: string): Promise<UserGroup | undefined> {
  return db
    .selectFrom('user_groups')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('name', '=', name)
    .where('is_system_group', '=', 1)
    .executeTakeFirst();
}

export async function groupById(db: Q, realmId: number, id: number): Promise<UserGroup | undefined> {
  return db.selectFrom('user_groups').selectAll().where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}

export async function groupsInRealm(db: Q, realmId: number, opts: { includeDeactivated?: boolean } = {}): Promise<UserGroup[]> {
  let q = db.selectFrom('user_groups').selectAll().where('realm_id', '=', realmId);
  if (!opts.includeDeactivated) q = q.where('deactivated', '=', 0);
  return q.orderBy('id').execute();
}

export async function groupByName(db: Q, realmId: number, name: string): Promise<UserGroup | undefined> {
  return db.selectFrom('user_groups').selectAll().where('realm_id', '=', realmId).where('name', '=', name).executeTakeFirst();
}

/** Direct members (active users) of each listed non-system group. */
export async function directMemberIds(db: Q, groupIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return out;
  const rows = await db
    .selectFrom('user_group_members')
    .innerJoin('users', 'users.id', 'user_group_members.user_id')
    .select(['user_group_members.group_id', 'user_group_members.user_id'])
    .where('user_group_members.group_id', 'in', [...groupIds])
    .where('users.is_active', '=', 1)
    .orderBy('user_group_members.user_id')
    .execute();
  for (const r of rows) out.get(r.group_id)?.push(r.user_id);
  return out;
}

export async function directSubgroupIds(db: Q, groupIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return out;
  const rows = await db
    .selectFrom('user_group_subgroups')
    .select(['group_id', 'subgroup_id'])
    .where('group_id', 'in', [...groupIds])
    .orderBy('subgroup_id')
    .execute();
  for (const r of rows) out.get(r.group_id)?.push(r.subgroup_id);
  return out;
}

/** A group by ID whatever its realm (a subgroup found through its parent). */
export async function groupByIdInAnyRealm(db: Q, id: number): Promise<UserGroup | undefined> {
  return db.selectFrom('user_groups').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The IDs and names of the realm's system groups. */
export async function systemGroupIdNames(db: Q, realmId: number): Promise<{ id: number; name: string }[]> {
  return db.selectFrom('user_groups').select(['id', 'name']).where('realm_id', '=', realmId).where('is_system_group', '=', 1).execute();
}

/** Whether the user is a direct member of the group (a row in user_group_members). */
export async function isDirectMember(db: Q, groupId: number, userId: number): Promise<boolean> {
  const member = await db
    .selectFrom('user_group_members')
    .select('user_id')
    .where('group_id', '=', groupId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return member !== undefined;
}

/** The direct subgroups of one group. */
export async function subgroupIdsOf(db: Q, groupId: number): Promise<number[]> {
  const rows = await db.selectFrom('user_group_subgroups').select('subgroup_id').where('group_id', '=', groupId).execute();
  return rows.map((r) => r.subgroup_id);
}

/** Groups that list this one as a direct subgroup. */
export async function supergroupIds(db: Q, groupId: number): Promise<number[]> {
  const rows = await db.selectFrom('user_group_subgroups').select('group_id').where('subgroup_id', '=', groupId).orderBy('group_id').execute();
  return rows.map((r) => r.group_id);
}

export async function insertGroup(
  tx: Tx,
  values: { realmId: number; name: string; description: string; now: number; creatorId: number; canMentionGroup: number },
): Promise<number> {
  const row = await tx
    .insertInto('user_groups')
    .values({
      realm_id: values.realmId,
      name: values.name,
      description: values.description,
      is_system_group: 0,
      deactivated: 0,
      role_limit: null,
      date_created: values.now,
      creator_id: values.creatorId,
      can_mention_group: values.canMentionGroup,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateGroup(tx: Tx, id: number, values: { name?: string; description?: string; can_mention_group?: number; deactivated?: number }): Promise<void> {
  await tx.updateTable('user_groups').set(values).where('id', '=', id).execute();
}

export async function addGroupMembers(tx: Tx, groupId: number, userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  await tx.insertInto('user_group_members').values(userIds.map((user_id) => ({ group_id: groupId, user_id }))).execute();
}

export async function removeGroupMembers(tx: Tx, groupId: number, userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  await tx.deleteFrom('user_group_members').where('group_id', '=', groupId).where('user_id', 'in', [...userIds]).execute();
}

export async function addSubgroups(tx: Tx, groupId: number, subgroupIds: readonly number[]): Promise<void> {
  if (subgroupIds.length === 0) return;
  await tx.insertInto('user_group_subgroups').values(subgroupIds.map((subgroup_id) => ({ group_id: groupId, subgroup_id }))).execute();
}

export async function removeSubgroups(tx: Tx, groupId: number, subgroupIds: readonly number[]): Promise<void> {
  if (subgroupIds.length === 0) return;
  await tx.deleteFrom('user_group_subgroups').where('group_id', '=', groupId).where('subgroup_id', 'in', [...subgroupIds]).execute();
}

/** Where a group is used as a permission: other groups' can_mention_group and streams' settings. */
export async function groupUses(db: Q, realmId: number, groupId: number): Promise<{ groupIds: number[]; streamIds: number[] }> {
  const groups = await db
    .selectFrom('user_groups')
    .select('id')
    .where('realm_id', '=', realmId)
    .where('can_mention_group', '=', groupId)
    .where('id', '!=', groupId)
    .where('deactivated', '=', 0)
    .orderBy('id')
    .execute();
  const streams = await db
    .selectFrom('streams')
    .select('id')
    .where('realm_id', '=', realmId)
    .where('can_remove_subscribers_group_id', '=', groupId)
    .where('deactivated', '=', 0)
    .orderBy('id')
    .execute();
  return { groupIds: groups.map((g) => g.id), streamIds: streams.map((s) => s.id) };
}

/** The groups the user is a direct member of (rows in user_group_members), in ID order. */
export async function groupIdsOfMember(db: Q, userId: number): Promise<number[]> {
  const rows = await db.selectFrom('user_group_members').select('group_id').where('user_id', '=', userId).orderBy('group_id').execute();
  return rows.map((r) => r.group_id);
}

/** A group's ID and whether it is a system group. */
export async function groupKindById(db: Q, realmId: number, id: number): Promise<{ id: number; is_system_group: number } | undefined> {
  return db.selectFrom('user_groups').select(['id', 'is_system_group']).where('realm_id', '=', realmId).where('id', '=', id).executeTakeFirst();
}
