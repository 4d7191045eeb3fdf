// Adding, changing, removing and reordering the realm's linkifiers (administrators only).
import type { AppContext } from '../context.ts';
import type { Realm, User } from '../db/schema.ts';
import { deleteLinkifier, insertLinkifier, linkifierById, linkifierRows, updateLinkifier } from '../db/queries/linkifiers.ts';
import { activeUserIdsInRealm } from '../db/queries/users.ts';
import { requireAdmin } from '../lib/permissions.ts';
import { badRequest } from '../lib/errors.ts';
import { checkLinkifierPattern, checkUrlTemplate, probeLinkifierPattern } from '../lib/linkifier-check.ts';
import { compileLinkifiers } from '../lib/markdown/linkify.ts';
import { presentLinkifier } from '../presenters/linkifier.ts';
import { runAction, type ActionScope } from './action.ts';

async function emitLinkifiers(scope: ActionScope, realmId: number): Promise<void> {
  const rows = await linkifierRows(scope.tx, realmId);
  scope.emit({ type: 'realm_linkifiers', realm_linkifiers: rows.map(presentLinkifier) }, await activeUserIdsInRealm(scope.tx, realmId));
}

async function checkLinkifier(pattern: string, urlTemplate: string): Promise<{ pattern: string; urlTemplate: string }> {
  const p = pattern.trim();
  const names = checkLinkifierPattern(p);
  const template = checkUrlTemplate(urlTemplate, names);
  const [compiled] = compileLinkifiers([{ id: 0, pattern: p, urlTemplate: template }]);
  if (!compiled) throw badRequest('Invalid linkifier pattern');
  await probeLinkifierPattern(compiled.re);
  return { pattern: p, urlTemplate: template };
}

export async function checkAddLinkifier(app: AppContext, caller: User, realm: Realm, pattern: string, urlTemplate: string): Promise<number> {
  requireAdmin(caller);
  const l = await checkLinkifier(pattern, urlTemplate);
  return runAction(app, async (scope) => {
    const rows = await linkifierRows(scope.tx, realm.id);
    if (rows.some((r) => r.pattern === l.pattern)) throw badRequest('Linkifier with this pattern already exists.');
    const order = rows.reduce((m, r) => Math.max(m, r.order + 1), 0);
    const id = await insertLinkifier(scope.tx, { realm_id: realm.id, pattern: l.pattern, url_template: l.urlTemplate, order });
    await emitLinkifiers(scope, realm.id);
    return id;
  });
}

export async function checkUpdateLinkifier(app: AppContext, caller: User, realm: Realm, id: number, pattern: string, urlTemplate: string): Promise<void> {
  requireAdmin(caller);
  const l = await checkLinkifier(pattern, urlTemplate);
  await runAction(app, async (scope) => {
    if (!(await linkifierById(scope.tx, realm.id, id))) throw badRequest('Linkifier not found.');
    const rows = await linkifierRows(scope.tx, realm.id);
    if (rows.some((r) => r.id !== id && r.pattern === l.pattern)) throw badRequest('Linkifier with this pattern already exists.');
    await updateLinkifier(scope.tx, id, { pattern: l.pattern, url_template: l.urlTemplate });
    await emitLinkifiers(scope, realm.id);
  });
}

export async function checkRemoveLinkifier(app: AppContext, caller: User, realm: Realm, id: number): Promise<void> {
  requireAdmin(caller);
  await runAction(app, async (scope) => {
    if (!(await linkifierById(scope.tx, realm.id, id))) throw badRequest('Linkifier not found.');
    await deleteLinkifier(scope.tx, id);
    await emitLinkifiers(scope, realm.id);
  });
}

export async function checkReorderLinkifiers(app: AppContext, caller: User, realm: Realm, orderedIds: number[]): Promise<void> {
  requireAdmin(caller);
  await runAction(app, async (scope) => {
    const rows = await linkifierRows(scope.tx, realm.id);
    const ids = new Set(rows.map((r) => r.id));
    if (orderedIds.length !== ids.size || new Set(orderedIds).size !== orderedIds.length || !orderedIds.every((id) => ids.has(id))) {
      throw badRequest('The ordered list must enumerate all existing linkifiers exactly once');
    }
    for (const [order, id] of orderedIds.entries()) await updateLinkifier(scope.tx, id, { order });
    await emitLinkifiers(scope, realm.id);
  });
}
