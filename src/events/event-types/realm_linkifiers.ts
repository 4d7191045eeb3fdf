// realm_linkifiers events: the realm's whole list of linkifiers, only for clients that read URL
// templates (`linkifier_url_template`): others get no linkifier events, and an empty snapshot
// group. The legacy `realm_filters` group is empty since feature level 176.
import { linkifierRows } from '../../db/queries/linkifiers.ts';
import { presentLinkifier, type LinkifierJson } from '../../presenters/linkifier.ts';
import { replaceApply } from '../apply/replace.ts';
import { defineEventType, type SnapshotGroup } from '../event-type.ts';

export type RealmLinkifiersEvent = { type: 'realm_linkifiers'; realm_linkifiers: LinkifierJson[] };

export const realmLinkifiersGroup: SnapshotGroup = async ({ app, realm, clientCapabilities }) => ({
  realm_linkifiers: clientCapabilities.linkifier_url_template ? (await linkifierRows(app.db.kysely, realm.id)).map(presentLinkifier) : [],
});

export const realmFiltersGroup: SnapshotGroup = async () => ({ realm_filters: [] });

export const realmLinkifiersEventType = defineEventType<RealmLinkifiersEvent>({
  type: 'realm_linkifiers',
  forClient(event, client) {
    return client.capabilities.linkifier_url_template ? [event] : [];
  },
  snapshot: { realm_linkifiers: realmLinkifiersGroup },
  fixedSnapshot: { realm_filters: realmFiltersGroup },
  apply: replaceApply('realm_linkifiers', 'realm_linkifiers'),
});
