// The email domains of open sign-up and of `emails_restricted_to_domains`: managed by owners
// (as the restriction itself), announced to everyone in the realm.
import type { AppContext } from '../context.ts';
import type { Realm, User } from '../db/schema.ts';
import { deleteRealmDomain, insertRealmDomain, realmDomain, updateRealmDomain } from '../db/queries/realm-domains.ts';
import { activeUserIdsInRealm } from '../db/queries/users.ts';
import { requireOwner } from '../lib/permissions.ts';
import { badRequest } from '../lib/errors.ts';
import { runAction } from './action.ts';

const LABEL_RE = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** A domain in the form it is stored and compared in: lower case, no surrounding dots or spaces. */
export function checkDomain(raw: string): string {
  const domain = raw.trim().toLowerCase();
  if (domain === '') throw badRequest("Invalid domain: Domain can't be empty.");
  if (!domain.includes('.')) throw badRequest('Invalid domain: Domain must have at least one dot (.)');
  if (domain.length > 255) throw badRequest('Invalid domain: Domain is too long');
  if (domain.startsWith('.') || domain.endsWith('.')) throw badRequest("Invalid domain: Domain can't start or end with a dot (.)");
  for (const label of domain.split('.')) {
    if (!LABEL_RE.test(label)) throw badRequest(`Invalid domain: Domain component '${label}' is invalid`);
  }
  return domain;
}

export async function checkAddRealmDomain(app: AppContext, caller: User, realm: Realm, raw: string, allowSubdomains: boolean): Promise<void> {
  requireOwner(caller);
  const domain = checkDomain(raw);
  await runAction(app, async (scope) => {
    if (await realmDomain(scope.tx, realm.id, domain)) throw badRequest(`The domain ${domain} is already a part of your organization.`);
    await insertRealmDomain(scope.tx, realm.id, domain, allowSubdomains);
    scope.emit({ type: 'realm_domains', op: 'add', realm_domain: { domain, allow_subdomains: allowSubdomains } }, await activeUserIdsInRealm(scope.tx, realm.id));
  });
}

export async function checkChangeRealmDomain(app: AppContext, caller: User, realm: Realm, raw: string, allowSubdomains: boolean): Promise<void> {
  requireOwner(caller);
  const domain = raw.trim().toLowerCase();
  await runAction(app, async (scope) => {
    const row = await realmDomain(scope.tx, realm.id, domain);
    if (!row) throw badRequest(`No entry found for domain ${domain}.`);
    if ((row.allow_subdomains === 1) === allowSubdomains) return;
    await updateRealmDomain(scope.tx, realm.id, domain, allowSubdomains);
    scope.emit({ type: 'realm_domains', op: 'change', realm_domain: { domain, allow_subdomains: allowSubdomains } }, await activeUserIdsInRealm(scope.tx, realm.id));
  });
}

export async function checkRemoveRealmDomain(app: AppContext, caller: User, realm: Realm, raw: string): Promise<void> {
  requireOwner(caller);
  const domain = raw.trim().toLowerCase();
  await runAction(app, async (scope) => {
    if (!(await realmDomain(scope.tx, realm.id, domain))) throw badRequest(`No entry found for domain ${domain}.`);
    await deleteRealmDomain(scope.tx, realm.id, domain);
    scope.emit({ type: 'realm_domains', op: 'remove', domain }, await activeUserIdsInRealm(scope.tx, realm.id));
  });
}
