// realm_domains events: one domain added, changed or removed; the snapshot list stays sorted by
// domain, as the register snapshot lists it.
import type { EventFamily, State } from '../family.ts';
import type { BaseEvent } from '../types.ts';

interface Domain {
  domain: string;
  allow_subdomains: boolean;
}

export const realmDomainsFamily: EventFamily = {
  apply(state: State, event: BaseEvent): void {
    const list = state.realm_domains as Domain[] | undefined;
    if (!list) return;
    if (event.op === 'remove') {
      state.realm_domains = list.filter((d) => d.domain !== event.domain);
      return;
    }
    const changed = event.realm_domain as Domain;
    const others = list.filter((d) => d.domain !== changed.domain);
    state.realm_domains = [...others, { ...changed }].sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
  },
};
