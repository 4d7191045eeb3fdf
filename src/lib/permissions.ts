// The realm's "who may" policies, decided from a role and a join date alone, so that the server
// and a client's snapshot (applying role and setting changes) decide them alike.
import type { User } from '../db/schema.ts';
import { COMMON_POLICY, ROLE, type RealmSettings } from './limits.ts';

/** The reference's "owners only" value, which some policies (web-public streams) take. */
const OWNERS_ONLY = 7;

export interface Member {
  role: number;
  /** UTC seconds. */
  date_joined: number;
}

/** Whether someone of this role, joined then, meets `policy` (the reference's `has_permission`). */
export function meetsRolePolicy(member: Member, policy: number, waitingPeriodDays: number, now: number): boolean {
  if (policy === COMMON_POLICY.NOBODY) return false;
  if (policy === COMMON_POLICY.EVERYONE) return true;
  if (member.role === ROLE.OWNER) return true;
  if (policy === OWNERS_ONLY) return false;
  if (member.role <= ROLE.ADMINISTRATOR) return true;
  if (policy === COMMON_POLICY.ADMINS) return false;
  if (member.role <= ROLE.MODERATOR) return true;
  if (policy === COMMON_POLICY.MODERATORS) return false;
  if (member.role === ROLE.GUEST) return false;
  if (policy === COMMON_POLICY.FULL_MEMBERS) return now - member.date_joined >= waitingPeriodDays * 86400;
  return true;
}

/** The realm settings the snapshot's own permissions depend on. */
export const PERMISSION_SETTINGS = [
  'create_public_stream_policy',
  'create_private_stream_policy',
  'create_web_public_stream_policy',
  'invite_to_stream_policy',
  'invite_to_realm_policy',
  'waiting_period_threshold',
  'enable_spectator_access',
] as const;

export type PermissionSettings = Pick<RealmSettings, (typeof PERMISSION_SETTINGS)[number]>;

/** The `realm_user` snapshot's fields saying what the user may do. */
export function ownPermissions(member: Member, s: PermissionSettings, now: number): Record<string, boolean> {
  const may = (policy: number) => meetsRolePolicy(member, policy, s.waiting_period_threshold, now);
  const pub = may(s.create_public_stream_policy);
  const priv = may(s.create_private_stream_policy);
  return {
    can_create_streams: pub || priv,
    can_create_public_streams: pub,
    can_create_private_streams: priv,
    // Web-public streams also need spectator access (the server allows them).
    can_create_web_public_streams: s.enable_spectator_access && may(s.create_web_public_stream_policy),
    can_subscribe_other_users: may(s.invite_to_stream_policy),
    can_invite_others_to_realm: may(s.invite_to_realm_policy),
  };
}

/** Whether the user passes one of the realm's "who may" policies. */
export function passesPolicy(user: User, policy: number, settings: RealmSettings, now: number): boolean {
  return meetsRolePolicy(user, policy, settings.waiting_period_threshold, now);
}
