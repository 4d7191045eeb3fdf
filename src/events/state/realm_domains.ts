// The `realm_domains` snapshot group: the email domains of the realm's open sign-up.
import { realmDomains } from '../../db/queries/realm-domains.ts';
import { presentRealmDomain } from '../../presenters/realm-domain.ts';
import type { SnapshotGroup } from './types.ts';

export const realmDomainsGroup: SnapshotGroup = async ({ app, realm }) => ({
  realm_domains: (await realmDomains(app.db.kysely, realm.id)).map(presentRealmDomain),
});
