// Who may do what, in one place: the roles, the realm's "who may" policies, the waiting period
// for new members, and the rules built on them. Routes and actions ask here (stream and message
// visibility stays in access.ts). Decided from a role and a join date alone, so that the server
// and a client's snapshot (applying role and setting changes) decide alike; the web client's
// mirror, web/store/permissions.ts, is held to the same table by test/lib/permissions.test.ts.
import { adminRequired, badRequest, ownerRequired } from './errors.ts';
import type { RealmSettings } from './settings-registry.ts';

/** Roles as the reference numbers them: a smaller number has more rights. */
export const ROLE = {
  OWNER: 100,
  ADMINISTRATOR: 200,
  MODERATOR: 300,
  MEMBER: 400,
  GUEST: 600,
} as const;
export const ROLES: readonly number[] = Object.values(ROLE);

/** Values of the realm's "who may do X" settings (the reference's `has_permission`). */
export const COMMON_POLICY = { MEMBERS: 1, ADMINS: 2, FULL_MEMBERS: 3, MODERATORS: 4, EVERYONE: 5, NOBODY: 6 } as const;

/** The reference's "owners only" value, which some policies (web-public streams) take. */
export const OWNERS_ONLY_POLICY = 7;

/** A stream's `stream_post_policy`. */
export const STREAM_POST_POLICY = { EVERYONE: 1, ADMINS: 2, FULL_MEMBERS: 3, MODERATORS: 4 } as const;

/** The realm's `bot_creation_policy`. */
export const BOT_CREATION_POLICY = { EVERYONE: 1, LIMIT_GENERIC_BOTS: 2, ADMINS_ONLY: 3 } as const;

export interface HasRole {
  role: number;
}

export interface Member extends HasRole {
  /** UTC seconds. */
  date_joined: number;
}

export const isOwner = (u: HasRole): boolean => u.role === ROLE.OWNER;
/** Administrators, owners included. */
export const isAdmin = (u: HasRole): boolean => u.role <= ROLE.ADMINISTRATOR;
/** Moderators, administrators and owners. */
export const isModerator = (u: HasRole): boolean => u.role <= ROLE.MODERATOR;
export const isGuest = (u: HasRole): boolean => u.role === ROLE.GUEST;

/** The role flags of the user objects (`realm_user`, `/users`). */
export function roleFlags(role: number): { is_owner: boolean; is_admin: boolean; is_guest: boolean } {
  const u = { role };
  return { is_owner: isOwner(u), is_admin: isAdmin(u), is_guest: isGuest(u) };
}

export function requireAdmin(u: HasRole): void {
  if (!isAdmin(u)) throw adminRequired();
}

export function requireOwner(u: HasRole): void {
  if (!isOwner(u)) throw ownerRequired();
}

/** The reference's `require_member_or_admin`: everything but guests. */
export function requireMember(u: HasRole): void {
  if (isGuest(u)) throw badRequest('Not allowed for guest users');
}

/** Whether the realm's waiting period (in days) has passed since the member joined. */
export function waitingPeriodOver(member: Member, waitingPeriodDays: number, now: number): boolean {
  return now - member.date_joined >= waitingPeriodDays * 86400;
}

/**
 * A new member (the reference's "provisional member"): still in the waiting period. Moderators
 * and above never are.
 */
export function isNewMember(member: Member, waitingPeriodDays: number, now: number): boolean {
  return !isModerator(member) && !waitingPeriodOver(member, waitingPeriodDays, now);
}

/** Whether the member belongs to `role:fullmembers`: members past the waiting period, and moderators and above. */
export function isFullMember(member: Member, waitingPeriodDays: number, now: number): boolean {
  return member.role <= ROLE.MEMBER && !isNewMember(member, waitingPeriodDays, now);
}

/** Whether someone of this role, joined then, meets `policy` (the reference's `has_permission`). */
export function meetsRolePolicy(member: Member, policy: number, waitingPeriodDays: number, now: number): boolean {
  if (policy === COMMON_POLICY.NOBODY) return false;
  if (policy === COMMON_POLICY.EVERYONE) return true;
  if (isOwner(member)) return true;
  if (policy === OWNERS_ONLY_POLICY) return false;
  if (isAdmin(member)) return true;
  if (policy === COMMON_POLICY.ADMINS) return false;
  if (isModerator(member)) return true;
  if (policy === COMMON_POLICY.MODERATORS) return false;
  if (isGuest(member)) return false;
  if (policy === COMMON_POLICY.FULL_MEMBERS) return !isNewMember(member, waitingPeriodDays, now);
  return true;
}

/**
 * The rules decided by one realm policy setting: the setting, and whether guests are refused
 * whatever it says (where the reference refuses them before asking the policy).
 */
export const POLICY_RULES = {
  createPublicStream: { setting: 'create_public_stream_policy' },
  createPrivateStream: { setting: 'create_private_stream_policy' },
  createWebPublicStream: { setting: 'create_web_public_stream_policy' },
  subscribeOthers: { setting: 'invite_to_stream_policy' },
  inviteToRealm: { setting: 'invite_to_realm_policy' },
  editTopic: { setting: 'edit_topic_policy' },
  moveBetweenStreams: { setting: 'move_messages_between_streams_policy', noGuests: true },
  deleteOwnMessage: { setting: 'delete_own_message_policy' },
  manageUserGroups: { setting: 'user_group_edit_policy', noGuests: true },
  addCustomEmoji: { setting: 'add_custom_emoji_policy', noGuests: true },
} as const satisfies Record<string, { setting: keyof RealmSettings; noGuests?: boolean }>;

export type PolicyRule = keyof typeof POLICY_RULES;
type PolicySetting = (typeof POLICY_RULES)[PolicyRule]['setting'];

/** The realm settings a rule reads. */
export type PolicySettings<R extends PolicyRule = PolicyRule> = Pick<RealmSettings, (typeof POLICY_RULES)[R]['setting'] | 'waiting_period_threshold'>;

/** Whether the member may do what `rule` names under the realm's settings. */
export function may<R extends PolicyRule>(member: Member, rule: R, settings: PolicySettings<R>, now: number): boolean {
  const r: { setting: PolicySetting; noGuests?: boolean } = POLICY_RULES[rule];
  if (r.noGuests && isGuest(member)) return false;
  const policy = (settings as Partial<Record<PolicySetting, number>>)[r.setting] as number;
  return meetsRolePolicy(member, policy, settings.waiting_period_threshold, now);
}

/** Whether the member may post to a stream under its `stream_post_policy` (the reference's rule). */
export function canPostToStream(user: Member & { is_bot: number }, postPolicy: number, waitingPeriodDays: number, now: number): boolean {
  if (postPolicy === STREAM_POST_POLICY.EVERYONE) return true;
  // Bots post to restricted streams only as administrators.
  if (user.is_bot) return isAdmin(user);
  if (isAdmin(user)) return true;
  switch (postPolicy) {
    case STREAM_POST_POLICY.ADMINS:
      return false;
    case STREAM_POST_POLICY.MODERATORS:
      return isModerator(user);
    case STREAM_POST_POLICY.FULL_MEMBERS:
      return !isGuest(user) && !isNewMember(user, waitingPeriodDays, now);
    default:
      return true;
  }
}

/**
 * Who may invite someone as `inviteAs` (the reference's check_role_based_permissions): owners
 * are invited by owners, administrators and moderators by administrators, members and guests by
 * anyone the invite policy lets invite.
 */
export function requireMayInviteAs(caller: HasRole, inviteAs: number): void {
  if (inviteAs === ROLE.OWNER) requireOwner(caller);
  else if (isModerator({ role: inviteAs })) requireAdmin(caller);
}

/** Whether a member (not a guest) may create a bot, generic or not, under the realm's `bot_creation_policy`. */
export function canCreateBot(user: HasRole, policy: number, generic: boolean): boolean {
  if (isAdmin(user)) return true;
  if (policy === BOT_CREATION_POLICY.ADMINS_ONLY) return false;
  if (policy === BOT_CREATION_POLICY.LIMIT_GENERIC_BOTS) return !generic;
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
  const mayDo = (rule: 'createPublicStream' | 'createPrivateStream' | 'createWebPublicStream' | 'subscribeOthers' | 'inviteToRealm') => may(member, rule, s, now);
  const pub = mayDo('createPublicStream');
  const priv = mayDo('createPrivateStream');
  return {
    can_create_streams: pub || priv,
    can_create_public_streams: pub,
    can_create_private_streams: priv,
    // Web-public streams also need spectator access (the server allows them).
    can_create_web_public_streams: s.enable_spectator_access && mayDo('createWebPublicStream'),
    can_subscribe_other_users: mayDo('subscribeOthers'),
    can_invite_others_to_realm: mayDo('inviteToRealm'),
  };
}
