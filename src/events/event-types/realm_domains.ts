// realm_domains events: one email domain of the realm's open sign-up added, changed or removed;
// the snapshot list stays sorted by domain, as the register snapshot lists it.
import { realmDomains } from '../../db/queries/realm-domains.ts';
import { presentRealmDomain, type RealmDomainJson } from '../../presenters/realm-domain.ts';
import { defineEventType, type SnapshotGroup, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';

export type RealmDomainsEvent =
  | { type: 'realm_domains'; op: 'add' | 'change'; realm_domain: RealmDomainJson }
  | { type: 'realm_domains'; op: 'remove'; domain: string };

export const realmDomainsGroup: SnapshotGroup = async ({ app, realm }) => ({
  realm_domains: (await realmDomains(app.db.kysely, realm.id)).map(presentRealmDomain),
});

function apply(state: State, event: BaseEvent): void {
  const list = state.realm_domains as RealmDomainJson[] | undefined;
  if (!list) return;
  if (event.op === 'remove') {
    state.realm_domains = list.filter((d) => d.domain !== event.domain);
    return;
  }
  const changed = event.realm_domain as RealmDomainJson;
  const others = list.filter((d) => d.domain !== changed.domain);
  state.realm_domains = [...others, { ...changed }].sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
}

export const realmDomainsEventType = defineEventType<RealmDomainsEvent>({ type: 'realm_domains', snapshot: { realm_domains: realmDomainsGroup }, apply });
