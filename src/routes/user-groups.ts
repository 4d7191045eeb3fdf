// User groups: listing, creating, changing, deactivating, members and subgroups.
import { route } from '../http/route.ts';
import { alias, optional, p, path } from '../http/params.ts';
import { id, idList } from '../http/ids.ts';
import type { Conn } from '../db/database.ts';
import type { Realm, User, UserGroup } from '../db/schema.ts';
import { groupById, groupsInRealm } from '../db/queries/groups.ts';
import { accessUserById } from '../lib/access.ts';
import { requireMember } from '../lib/permissions.ts';
import { badRequest } from '../lib/errors.ts';
import { expandGroup, groupsWithMembers, mentionDefaults } from '../lib/groups.ts';
import { presentUserGroup } from '../presenters/user-group.ts';
import {
  checkCreateUserGroup,
  checkDeactivateUserGroup,
  checkUpdateGroupMembership,
  checkUpdateUserGroup,
} from '../actions/user-groups.ts';

function requireMemberOrAdmin(user: User): void {
  requireMember(user);
  if (user.is_bot) throw badRequest('This endpoint does not accept bot requests.');
}

async function accessGroupForRead(db: Conn, realm: Realm, id: number): Promise<UserGroup> {
  const group = await groupById(db, realm.id, id);
  if (!group) throw badRequest('Invalid user group');
  return group;
}

/** Members of a group: direct ones, or everyone reached through its subgroups too. */
async function groupMembers(db: Conn, realm: Realm, group: UserGroup, directOnly: boolean): Promise<number[]> {
  if (directOnly) return (await groupsWithMembers(db, realm.id, [group]))[0]!.members;
  return (await expandGroup(db, realm.id, group)).members;
}

const groupId = path(id());
const intList = (): ReturnType<typeof optional<number[]>> => optional(idList(), [] as number[]);

export const userGroupRoutes = [
  route({
    method: 'GET',
    path: '/user_groups',
    auth: 'user',
    params: { include_deactivated_groups: optional(alias(p.bool(), 'allow_deactivated'), false) },
    async handler({ app, realm, user, params }) {
      requireMemberOrAdmin(user);
      const db = app.db.kysely;
      const groups = await groupsInRealm(db, realm.id, { includeDeactivated: params.include_deactivated_groups });
      const defaults = await mentionDefaults(db, realm.id);
      return { user_groups: (await groupsWithMembers(db, realm.id, groups)).map((g) => presentUserGroup(g, defaults)) };
    },
  }),
  route({
    method: 'POST',
    path: '/user_groups/create',
    auth: 'user',
    params: {
      name: p.string(),
      description: p.string(),
      members: idList(),
      subgroups: intList(),
      can_mention_group: optional(alias(id(), 'can_mention_group_id')),
    },
    async handler({ app, realm, user, params }) {
      const id = await checkCreateUserGroup(app, user, realm, {
        name: params.name,
        description: params.description,
        members: params.members,
        subgroups: params.subgroups,
        canMentionGroup: params.can_mention_group,
      });
      return { group_id: id };
    },
  }),
  route({
    method: 'PATCH',
    path: '/user_groups/{user_group_id}',
    auth: 'user',
    params: {
      user_group_id: groupId,
      name: optional(p.string()),
      description: optional(p.string()),
      can_mention_group: optional(alias(id(), 'can_mention_group_id')),
    },
    async handler({ app, realm, user, params }) {
      await checkUpdateUserGroup(app, user, realm, params.user_group_id, {
        name: params.name,
        description: params.description,
        canMentionGroup: params.can_mention_group,
      });
      return {};
    },
  }),
  route({
    method: 'POST',
    path: '/user_groups/{user_group_id}/deactivate',
    auth: 'user',
    params: { user_group_id: groupId },
    async handler({ app, realm, user, params }) {
      await checkDeactivateUserGroup(app, user, realm, params.user_group_id);
      return {};
    },
  }),
  route({
    method: 'POST',
    path: '/user_groups/{user_group_id}/members',
    auth: 'user',
    params: { user_group_id: groupId, add: intList(), delete: intList(), add_subgroups: intList(), delete_subgroups: intList() },
    async handler({ app, realm, user, params }) {
      await checkUpdateGroupMembership(app, user, realm, params.user_group_id, {
        add: params.add,
        delete: params.delete,
        addSubgroups: params.add_subgroups,
        deleteSubgroups: params.delete_subgroups,
      });
      return {};
    },
  }),
  route({
    method: 'POST',
    path: '/user_groups/{user_group_id}/subgroups',
    auth: 'user',
    params: { user_group_id: groupId, add: intList(), delete: intList() },
    async handler({ app, realm, user, params }) {
      await checkUpdateGroupMembership(app, user, realm, params.user_group_id, { add: [], delete: [], addSubgroups: params.add, deleteSubgroups: params.delete });
      return {};
    },
  }),
  route({
    method: 'GET',
    path: '/user_groups/{user_group_id}/members',
    auth: 'user',
    params: { user_group_id: groupId, direct_member_only: optional(p.bool(), false) },
    async handler({ app, realm, params }) {
      const group = await accessGroupForRead(app.db.kysely, realm, params.user_group_id);
      return { members: await groupMembers(app.db.kysely, realm, group, params.direct_member_only) };
    },
  }),
  route({
    method: 'GET',
    path: '/user_groups/{user_group_id}/members/{user_id}',
    auth: 'user',
    params: { user_group_id: groupId, user_id: path(id()), direct_member_only: optional(p.bool(), false) },
    async handler({ app, realm, user, params }) {
      const db = app.db.kysely;
      const group = await accessGroupForRead(db, realm, params.user_group_id);
      const target = await accessUserById(db, user, params.user_id);
      const members = await groupMembers(db, realm, group, params.direct_member_only);
      return { is_user_group_member: members.includes(target.id) };
    },
  }),
  route({
    method: 'GET',
    path: '/user_groups/{user_group_id}/subgroups',
    auth: 'user',
    params: { user_group_id: groupId, direct_subgroup_only: optional(p.bool(), false) },
    async handler({ app, realm, params }) {
      const db = app.db.kysely;
      const group = await accessGroupForRead(db, realm, params.user_group_id);
      if (params.direct_subgroup_only) return { subgroups: (await groupsWithMembers(db, realm.id, [group]))[0]!.subgroups };
      return { subgroups: (await expandGroup(db, realm.id, group)).subgroups };
    },
  }),
];
