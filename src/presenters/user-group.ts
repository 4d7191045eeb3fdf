// The UserGroup object of the API, for responses, events and the register snapshot.
import type { GroupWithMembers } from '../lib/groups.ts';

export interface UserGroupJson {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
  can_mention_group: number;
  deactivated: boolean;
  creator_id: number | null;
  date_created: number | null;
}

/** Groups without a stored mention setting: system groups cannot be mentioned at our feature level. */
export interface MentionDefaults {
  everyone: number;
  nobody: number;
}

export function presentUserGroup({ group, members, subgroups }: GroupWithMembers, defaults: MentionDefaults): UserGroupJson {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    members,
    direct_subgroup_ids: subgroups,
    is_system_group: group.is_system_group === 1,
    can_mention_group: group.can_mention_group ?? (group.is_system_group ? defaults.nobody : defaults.everyone),
    deactivated: group.deactivated === 1,
    creator_id: group.creator_id,
    date_created: group.date_created,
  };
}
