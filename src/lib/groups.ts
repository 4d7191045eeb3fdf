// Membership of user groups, system groups included (their members follow from roles).
import type { Conn, Tx } from '../db/database.ts';
import type { User, UserGroup } from '../db/schema.ts';
import { ROLE } from './limits.ts';
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
      if (user.role > ROLE.MEMBER) return false;
      if (user.role <= ROLE.MODERATOR) return true;
      const settings = await realmSettingsById(db, user.realm_id);
      return now - user.date_joined >= settings.waiting_period_threshold * 86400;
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
    const group = await db.selectFrom('user_groups').selectAll().where('id', '=', id).where('realm_id', '=', user.realm_id).executeTakeFirst();
    if (!group || group.deactivated) continue;
    if (group.is_system_group) {
      if (await systemGroupHas(db, group, user, now)) return true;
      continue;
    }
    const member = await db
      .selectFrom('user_group_members')
      .select('user_id')
      .where('group_id', '=', id)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (member) return true;
    const subgroups = await db.selectFrom('user_group_subgroups').select('subgroup_id').where('group_id', '=', id).execute();
    queue.push(...subgroups.map((s) => s.subgroup_id));
  }
  return false;
}
