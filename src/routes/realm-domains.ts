// The realm's email domains (open sign-up and the email domain restriction).
import { p, path } from '../http/params.ts';
import { route } from '../http/route.ts';
import { realmDomains } from '../db/queries/realm-domains.ts';
import { presentRealmDomain } from '../presenters/realm-domain.ts';
import { checkAddRealmDomain, checkChangeRealmDomain, checkRemoveRealmDomain } from '../actions/realm-domains.ts';

export const realmDomainRoutes = [
  route({
    method: 'GET',
    path: '/realm/domains',
    auth: 'user',
    params: {},
    async handler({ app, realm }) {
      return { domains: (await realmDomains(app.db.kysely, realm.id)).map(presentRealmDomain) };
    },
  }),
  route({
    method: 'POST',
    path: '/realm/domains',
    auth: 'user',
    params: { domain: p.string({ maxLength: 255 }), allow_subdomains: p.bool() },
    async handler({ app, realm, user, params }) {
      await checkAddRealmDomain(app, user, realm, params.domain, params.allow_subdomains);
      return {};
    },
  }),
  route({
    method: 'PATCH',
    path: '/realm/domains/{domain}',
    auth: 'user',
    params: { domain: path(p.string({ maxLength: 255 })), allow_subdomains: p.bool() },
    async handler({ app, realm, user, params }) {
      await checkChangeRealmDomain(app, user, realm, params.domain, params.allow_subdomains);
      return {};
    },
  }),
  route({
    method: 'DELETE',
    path: '/realm/domains/{domain}',
    auth: 'user',
    params: { domain: path(p.string({ maxLength: 255 })) },
    async handler({ app, realm, user, params }) {
      await checkRemoveRealmDomain(app, user, realm, params.domain);
      return {};
    },
  }),
];
