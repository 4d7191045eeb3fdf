// What the organization's rules let you do with a message (the realm's policies, as the
// server checks them; the server still decides, this only keeps impossible actions off menus).
// The client's mirror of src/lib/permissions.ts: test/lib/permissions.test.ts holds both to one table.
import type { Message, User } from './types.ts';

export const POLICY = { MEMBERS: 1, ADMINS: 2, FULL_MEMBERS: 3, MODERATORS: 4, EVERYONE: 5, NOBODY: 6, OWNERS_ONLY: 7 } as const;
export const ROLE = { OWNER: 100, ADMIN: 200, MODERATOR: 300, MEMBER: 400, GUEST: 600 } as const;

/** The roles with their names, most rights first. */
export const ROLE_LABELS: readonly [number, string][] = [
  [ROLE.OWNER, 'Owner'],
  [ROLE.ADMIN, 'Administrator'],
  [ROLE.MODERATOR, 'Moderator'],
  [ROLE.MEMBER, 'Member'],
  [ROLE.GUEST, 'Guest'],
];

/** Who may invite as which role (the server's requireMayInviteAs): owners by owners, administrators and moderators by administrators. */
export function mayInviteAs(role: number, inviteAs: number): boolean {
  if (inviteAs === ROLE.OWNER) return role <= ROLE.OWNER;
  if (inviteAs <= ROLE.MODERATOR) return role <= ROLE.ADMIN;
  return true;
}

/** Still in the realm's waiting period (days): moderators and above never are. */
export function isNewMember(user: Pick<User, 'role' | 'date_joined'> | undefined, waitingPeriodDays: unknown, now: number): boolean {
  if (!user || user.role <= ROLE.MODERATOR || typeof waitingPeriodDays !== 'number' || user.date_joined === undefined) return false;
  return now - Date.parse(user.date_joined) / 1000 < waitingPeriodDays * 86400;
}

export function policyAllows(policy: unknown, role: number, newMember = false): boolean {
  switch (policy) {
    case POLICY.EVERYONE:
      return true;
    case POLICY.MEMBERS:
      return role <= ROLE.MEMBER;
    case POLICY.FULL_MEMBERS:
      return role <= ROLE.MEMBER && !newMember;
    case POLICY.MODERATORS:
      return role <= ROLE.MODERATOR;
    case POLICY.ADMINS:
      return role <= ROLE.ADMIN;
    case POLICY.OWNERS_ONLY:
      return role <= ROLE.OWNER;
    default:
      return false;
  }
}

/**
 * Whether the realm's user_group_edit_policy lets someone create and change user groups (the
 * server's `manageUserGroups` rule: guests never). Changing a group also needs being in it, or a
 * moderator or above (`mayEditGroup`).
 */
export function mayManageUserGroups(policy: unknown, role: number, newMember = false): boolean {
  return role < ROLE.GUEST && policyAllows(policy ?? POLICY.MEMBERS, role, newMember);
}

/** Whether someone who may manage groups may change this one: a member of it (`inGroup`, through subgroups too), or a moderator or above. */
export function mayEditGroup(mayManage: boolean, role: number, inGroup: boolean): boolean {
  return mayManage && (role <= ROLE.MODERATOR || inGroup);
}

/** A realm time limit: its value, null (no limit) included; the default only when absent. */
const orDefault = (limit: unknown, def: number): unknown => (limit === undefined ? def : limit);

const withinLimit = (limit: unknown, m: Message, now: number): boolean => typeof limit !== 'number' || limit === 0 || now - m.timestamp < limit;

export interface Rules {
  me: number;
  role: number;
  /** Whether you are still in the realm's waiting period (`isNewMember`). */
  newMember?: boolean;
  realm: Record<string, unknown>;
  now: number;
}

export function canEdit(m: Message, r: Rules): boolean {
  return editRefusal(m, r) === null;
}

/** Why the message's text cannot be edited, in words for the person; null when it can. */
export function editRefusal(m: Message, r: Rules): string | null {
  if (m.sender_id !== r.me) return 'You can only edit your own messages.';
  // Widgets (messages with submessages) cannot be edited: the server refuses it.
  if (m.submessages?.length) return 'A poll or a todo list cannot be edited.';
  if (r.realm.allow_message_editing === false) return 'Editing messages is turned off in this organization.';
  // null is "any time" (the admin's choice); only a realm that sends nothing has the default.
  const limit = orDefault(r.realm.message_content_edit_limit_seconds, 600);
  if (!withinLimit(limit, m, r.now)) return `The time limit for editing this message (${limitText(limit as number)}) has passed.`;
  return null;
}

/** A time limit in seconds as words: "10 minutes", "1 hour", "2 days". */
export function limitText(seconds: number): string {
  const [n, unit] = seconds % 86400 === 0 ? [seconds / 86400, 'day'] : seconds % 3600 === 0 ? [seconds / 3600, 'hour'] : seconds % 60 === 0 ? [seconds / 60, 'minute'] : [seconds, 'second'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

export function canDelete(m: Message, r: Rules): boolean {
  if (r.role <= ROLE.ADMIN) return true;
  return m.sender_id === r.me && policyAllows(r.realm.delete_own_message_policy ?? POLICY.ADMINS, r.role, r.newMember) && withinLimit(r.realm.message_content_delete_limit_seconds, m, r.now);
}

export function canMoveTopic(m: Message, r: Rules): boolean {
  if (m.type !== 'stream') return false;
  // Moderators are exempt from the time limit, not from the policy (as the server decides).
  if (!policyAllows(r.realm.edit_topic_policy ?? POLICY.EVERYONE, r.role, r.newMember)) return false;
  return r.role <= ROLE.MODERATOR || withinLimit(orDefault(r.realm.move_messages_within_stream_limit_seconds, 604800), m, r.now);
}

/** Where compose points; for direct messages, `toOneBot`: the one recipient (oneself aside) is a bot. */
export type ComposeTo = { type: 'stream'; streamName: string; postPolicy: unknown; topic: string; content: string } | { type: 'private'; recipients: number; toOneBot: boolean };

/**
 * Why the organization's rules refuse what compose would send (the server's checks: the stream's
 * post policy, topics required, direct messages only with bots); null when nothing does.
 */
export function composeBlocked(to: ComposeTo, role: number, realm: Record<string, unknown>): string | null {
  if (to.type === 'private') return realm.private_message_policy === 2 && to.recipients > 0 && !to.toOneBot ? 'Direct messages are disabled in this organization, except to a bot.' : null;
  if (to.postPolicy === 2 && role > ROLE.ADMIN) return `Only administrators can post in #${to.streamName}.`;
  if (to.postPolicy === 4 && role > ROLE.MODERATOR) return `Only moderators and administrators can post in #${to.streamName}.`;
  if (to.postPolicy === 3 && role >= ROLE.GUEST) return `Only full members can post in #${to.streamName}.`;
  if (realm.mandatory_topics === true && to.topic.trim() === '' && to.content.trim() !== '') return 'Topics are required in this organization: add one.';
  return null;
}
