// The `realm_linkifiers` snapshot group (empty for clients without the `linkifier_url_template`
// capability, which could not read URL templates), and the legacy `realm_filters` group, empty
// since feature level 176.
import { linkifierRows } from '../../db/queries/linkifiers.ts';
import { presentLinkifier } from '../../presenters/linkifier.ts';
import type { SnapshotGroup } from './types.ts';

export const realmLinkifiersGroup: SnapshotGroup = async ({ app, realm, clientCapabilities }) => ({
  realm_linkifiers: clientCapabilities.linkifier_url_template ? (await linkifierRows(app.db.kysely, realm.id)).map(presentLinkifier) : [],
});

export const realmFiltersGroup: SnapshotGroup = async () => ({ realm_filters: [] });
