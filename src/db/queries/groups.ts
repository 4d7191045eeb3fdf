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
