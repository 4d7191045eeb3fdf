// The caller's drafts.
import { id } from '../http/ids.ts';
import { route } from '../http/route.ts';
import { optional, p, path } from '../http/params.ts';
import { draftsOfUser } from '../db/queries/drafts.ts';
import { presentDraft } from '../presenters/draft.ts';
import { checkCreateDrafts, checkDeleteDraft, checkEditDraft, parseDraft, parseDraftList } from '../actions/drafts.ts';

export const draftRoutes = [
  route({
    method: 'GET',
    path: '/drafts',
    auth: 'user',
    params: {},
    async handler({ app, user }) {
      const drafts = (await draftsOfUser(app.db.kysely, user.id)).map(presentDraft);
      return { count: drafts.length, drafts };
    },
  }),
  route({
    method: 'POST',
    path: '/drafts',
    auth: 'user',
    params: { drafts: optional(p.json(parseDraftList), []) },
    async handler({ app, user, params }) {
      return { ids: await checkCreateDrafts(app, user, params.drafts) };
    },
  }),
  route({
    method: 'PATCH',
    path: '/drafts/{draft_id}',
    auth: 'user',
    params: { draft_id: path(id()), draft: p.json(parseDraft) },
    async handler({ app, user, params }) {
      await checkEditDraft(app, user, params.draft_id, params.draft);
      return {};
    },
  }),
  route({
    method: 'DELETE',
    path: '/drafts/{draft_id}',
    auth: 'user',
    params: { draft_id: path(id()) },
    async handler({ app, user, params }) {
      await checkDeleteDraft(app, user, params.draft_id);
      return {};
    },
  }),
];
