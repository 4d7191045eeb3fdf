// A realm's email domain as the API shows it (the reference's RealmDomain).
import type { RealmDomain } from '../db/schema.ts';

export interface RealmDomainJson {
  domain: string;
  allow_subdomains: boolean;
}

export const presentRealmDomain = (row: Pick<RealmDomain, 'domain' | 'allow_subdomains'>): RealmDomainJson => ({
  domain: row.domain,
  allow_subdomains: row.allow_subdomains === 1,
});
