// Which settings page the URL asks for (`#settings/<section>`, `#organization/<section>`), and
// the narrow to go back to when the overlay closes.
import { signal } from '@preact/signals';
import { store } from '../context.ts';
import { isNewMember, mayEditGroup, mayManageUserGroups, policyAllows, ROLE } from '../../store/permissions.ts';

export type SettingsKind = 'settings' | 'organization';
export interface SettingsRoute {
  kind: SettingsKind;
  section: string;
}

export const PERSONAL_SECTIONS: [string, string][] = [
  ['profile', 'Profile'],
  ['account', 'Account and privacy'],
  ['preferences', 'Preferences'],
  ['notifications', 'Notifications'],
  ['streams', 'Your streams'],
];

export const ORGANIZATION_SECTIONS: [string, string][] = [
  ['profile', 'Organization profile'],
  ['settings', 'Organization settings'],
  ['users', 'Users'],
  ['streams', 'Streams'],
  ['emoji', 'Custom emoji'],
  ['linkifiers', 'Linkifiers'],
  ['profile-fields', 'Custom profile fields'],
  ['groups', 'User groups'],
  ['bots', 'Bots'],
  ['invitations', 'Invitations'],
];

/**
 * Other names of sections, as links to the reference's web app and older ones name them
 * (`#settings/display` is the Preferences page; it opened Profile).
 */
const SECTION_ALIASES: Record<SettingsKind, Record<string, string>> = {
  settings: {
    display: 'preferences',
    'display-settings': 'preferences',
    'account-and-privacy': 'account',
    'your-account': 'account',
    subscriptions: 'streams',
  },
  organization: {
    'organization-profile': 'profile',
    'organization-settings': 'settings',
    'organization-permissions': 'settings',
    'user-list-admin': 'users',
    'emoji-settings': 'emoji',
    'linkifier-settings': 'linkifiers',
    'profile-field-settings': 'profile-fields',
    'user-groups-admin': 'groups',
    'bot-list-admin': 'bots',
    'invites-list-admin': 'invitations',
  },
};

/** The section a URL's name opens: its own, the one it is another name of, or the first. */
export function sectionFor(kind: SettingsKind, name: string | undefined): string {
  const sections = kind === 'settings' ? PERSONAL_SECTIONS : ORGANIZATION_SECTIONS;
  if (name !== undefined && sections.some(([k]) => k === name)) return name;
  const alias = name === undefined ? undefined : SECTION_ALIASES[kind][name];
  return alias ?? sections[0]![0];
}

export const settingsRoute = signal<SettingsRoute | null>(null);
let returnHash = '';

/** Reads the hash; true when it is a settings page (the narrow underneath stays as it was). */
export function readSettingsHash(hash: string): boolean {
  const m = /^#(settings|organization)(?:\/([\w-]+))?\/?$/.exec(hash);
  if (!m) {
    returnHash = hash;
    settingsRoute.value = null;
    return false;
  }
  const kind = m[1] as SettingsKind;
  const section = sectionFor(kind, m[2]);
  // The URL names the page shown (another name, or none, becomes the section's own).
  if (m[2] !== section) history.replaceState(history.state, '', `#${kind}/${section}`);
  settingsRoute.value = { kind, section };
  return true;
}

export function closeSettings(): void {
  location.hash = returnHash && returnHash !== '#' ? returnHash : '#all_messages';
}

export function isAdmin(): boolean {
  const role = store.users.get(store.me)?.role;
  return role !== undefined ? role <= ROLE.ADMIN : store.settings.me.value.is_admin;
}

export function isOwner(): boolean {
  return (store.users.get(store.me)?.role ?? ROLE.MEMBER) <= ROLE.OWNER;
}

/**
 * Whether the realm's invite_to_realm_policy lets the current person invite, as the server
 * decides it (a 'nobody' policy holds administrators back too; new members wait for 'full members').
 */
export function canInvite(): boolean {
  const me = store.users.get(store.me);
  const role = me?.role ?? (store.settings.me.value.is_admin ? ROLE.ADMIN : ROLE.MEMBER);
  const realm = store.settings.realm.value;
  return policyAllows(realm.invite_to_realm_policy, role, isNewMember(me, realm.waiting_period_threshold, Date.now() / 1000));
}

/** Your role, from the users list (events keep it current), or the snapshot's is_admin before it. */
export function myRole(): number {
  return store.users.get(store.me)?.role ?? (store.settings.me.value.is_admin ? ROLE.ADMIN : ROLE.MEMBER);
}

/** Whether you may see the organization's user groups: everyone but guests, as the server lists them. */
export function canSeeGroups(): boolean {
  return myRole() < ROLE.GUEST;
}

/** Whether the realm's user_group_edit_policy lets you create groups (and change those you may). */
export function canManageGroups(): boolean {
  const realm = store.settings.realm.value;
  return mayManageUserGroups(realm.user_group_edit_policy, myRole(), isNewMember(store.users.get(store.me), realm.waiting_period_threshold, Date.now() / 1000));
}

/** Whether you may change this group: the policy lets you, and you are in it or moderate. */
export function canEditGroup(groupId: number): boolean {
  return mayEditGroup(canManageGroups(), myRole(), store.admin.inGroup(groupId, store.me));
}
