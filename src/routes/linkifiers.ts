// Linkifiers: listing, adding, changing, removing and reordering.
import { p, path } from '../http/params.ts';
import { id, idList } from '../http/ids.ts';
import { route } from '../http/route.ts';
import { linkifierRows } from '../db/queries/linkifiers.ts';
import { presentLinkifier } from '../presenters/linkifier.ts';
import { checkAddLinkifier, checkRemoveLinkifier, checkReorderLinkifiers, checkUpdateLinkifier } from '../actions/linkifiers.ts';

const body = { pattern: p.string(), url_template: p.string() };

export const linkifierRoutes = [
  route({
    method: 'GET',
    path: '/realm/linkifiers',
    auth: 'user',
    params: {},
    async handler({ app, realm }) {
      return { linkifiers: (await linkifierRows(app.db.kysely, realm.id)).map(presentLinkifier) };
    },
  }),
  route({
    method: 'PATCH',
    path: '/realm/linkifiers',
    auth: 'user',
    params: { ordered_linkifier_ids: idList() },
    async handler({ app, realm, user, params }) {
      await checkReorderLinkifiers(app, user, realm, params.ordered_linkifier_ids);
      return {};
    },
  }),
  route({
    method: 'POST',
    path: '/realm/filters',
    auth: 'user',
    params: body,
    async handler({ app, realm, user, params }) {
      return { id: await checkAddLinkifier(app, user, realm, params.pattern, params.url_template) };
    },
  }),
  route({
    method: 'PATCH',
    path: '/realm/filters/{filter_id}',
    auth: 'user',
    params: { filter_id: path(id()), ...body },
    async handler({ app, realm, user, params }) {
      await checkUpdateLinkifier(app, user, realm, params.filter_id, params.pattern, params.url_template);
      return {};
    },
  }),
  route({
    method: 'DELETE',
    path: '/realm/filters/{filter_id}',
    auth: 'user',
    params: { filter_id: path(id()) },
    async handler({ app, realm, user, params }) {
      await checkRemoveLinkifier(app, user, realm, params.filter_id);
      return {};
    },
  }),
];
