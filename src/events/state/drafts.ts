// Register snapshot group `drafts`.
import { draftsOfUser } from '../../db/queries/drafts.ts';
import { presentDraft } from '../../presenters/draft.ts';
import type { SnapshotGroup } from './types.ts';

export const draftsSnapshot: SnapshotGroup = async ({ app, user }) => ({
  drafts: user ? (await draftsOfUser(app.db.kysely, user.id)).map(presentDraft) : [],
});
