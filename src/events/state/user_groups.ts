// Register snapshot: realm_user_groups (active groups, system groups included).
import { groupsInRealm } from '../../db/queries/groups.ts';
import { groupsWithMembers, mentionDefaults } from '../../lib/groups.ts';
import { presentUserGroup } from '../../presenters/user-group.ts';
import type { SnapshotGroup } from './types.ts';

export const userGroupsSnapshot: SnapshotGroup = async ({ app, realm }) => {
  const db = app.db.kysely;
  const groups = await groupsInRealm(db, realm.id);
  const defaults = await mentionDefaults(db, realm.id);
  return { realm_user_groups: (await groupsWithMembers(db, realm.id, groups)).map((g) => presentUserGroup(g, defaults)) };
};
