// Which settings page the URL asks for (`#settings/<section>`, `#organization/<section>`), and
// the narrow to go back to when the overlay closes.
import { signal } from '@preact/signals';
import { store } from '../context.ts';
import { isNewMember, policyAllows, ROLE } from '../../store/permissions.ts';

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
  const sections = kind === 'settings' ? PERSONAL_SECTIONS : ORGANIZATION_SECTIONS;
  const section = sections.some(([k]) => k === m[2]) ? m[2]! : sections[0]![0];
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
