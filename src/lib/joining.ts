// What invitations, sign-up and password resets share: link keys, their URLs, lifetimes and the
// realm's email domain rule.
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.ts';
import type { Realm, RealmDomain } from '../db/schema.ts';
import { realmUrl } from './realm.ts';

export const JOINING = {
  /** The reference's INVITATION_LINK_VALIDITY_MINUTES default: 10 days. */
  defaultInviteMinutes: 14400,
  /** The longest finite invitation lifetime accepted (a year; null means never). */
  maxInviteMinutes: 525600,
  /** Addresses in one POST /invites. */
  maxInviteesPerRequest: 100,
  /** The confirmation link of an open sign-up (the reference's default link validity: a day). */
  signupConfirmationSeconds: 86400,
  /** A password reset link. */
  passwordResetSeconds: 86400,
} as const;

const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** A link's secret: 24 characters of base32 (120 random bits), as the reference's confirmation keys. */
export function newLinkKey(): string {
  return [...randomBytes(24)].map((b) => KEY_ALPHABET[b & 31]).join('');
}

export const LINK_KEY_RE = /^[a-z2-7]{24}$/;

/** Every invitation and sign-up confirmation opens at /join/<key>/: one form of link for both. */
export const joinUrl = (config: Pick<Config, 'externalHost' | 'externalScheme'>, realm: Pick<Realm, 'subdomain'>, key: string): string =>
  `${realmUrl(config, realm)}/join/${key}/`;

export const passwordResetUrl = (config: Pick<Config, 'externalHost' | 'externalScheme'>, realm: Pick<Realm, 'subdomain'>, token: string): string =>
  `${realmUrl(config, realm)}/accounts/password/reset/${token}/`;

/** Whether the address's domain is one of the realm's (or below one that allows subdomains). */
export function emailInRealmDomains(email: string, domains: readonly Pick<RealmDomain, 'domain' | 'allow_subdomains'>[]): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return domains.some((d) => d.domain === domain || (d.allow_subdomains === 1 && domain.endsWith(`.${d.domain}`)));
}
