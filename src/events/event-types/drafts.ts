// drafts events: the user's synchronized drafts added, edited or deleted. The snapshot lists
// them newest edit first.
import { draftsOfUser } from '../../db/queries/drafts.ts';
import { presentDraft, type DraftJson } from '../../presenters/draft.ts';
import { upsertSorted } from '../apply/list.ts';
import { defineEventType, type SnapshotGroup, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';

export type DraftsEvent =
  | { type: 'drafts'; op: 'add'; drafts: DraftJson[] }
  | { type: 'drafts'; op: 'update'; draft: DraftJson }
  | { type: 'drafts'; op: 'remove'; draft_id: number };

export const draftsSnapshot: SnapshotGroup = async ({ app, user }) => ({
  drafts: user ? (await draftsOfUser(app.db.kysely, user.id)).map(presentDraft) : [],
});

function apply(state: State, event: BaseEvent): void {
  if (!Array.isArray(state.drafts)) return;
  const e = event as unknown as DraftsEvent;
  const changed = e.op === 'add' ? e.drafts : e.op === 'update' ? [e.draft] : [];
  const newestFirst = (a: DraftJson, b: DraftJson): number => b.timestamp - a.timestamp || b.id - a.id;
  state.drafts = upsertSorted(state.drafts as DraftJson[], (d) => d.id, changed, e.op === 'remove' ? [e.draft_id] : [], newestFirst);
}

export const draftsEventType = defineEventType<DraftsEvent>({ type: 'drafts', snapshot: { drafts: draftsSnapshot }, apply });
