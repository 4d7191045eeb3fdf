// Drafts: stored per user so the user's clients can share them; every change is sent to all of
// that user's clients as a drafts event.
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/database.ts';
import type { User } from '../db/schema.ts';
import { deleteDraft, deleteDraftsOfUser, draftOfUser, insertDraft, updateDraft } from '../db/queries/drafts.ts';
import { userById } from '../db/queries/users.ts';
import { accessStreamById } from '../lib/access.ts';
import { ApiError, badRequest } from '../lib/errors.ts';
import { LIMITS } from '../lib/limits.ts';
import { parseSettings, USER_SETTING_DEFAULTS } from '../lib/settings-registry.ts';
import { presentDraft } from '../presenters/draft.ts';
import { runAction, type ActionScope } from './action.ts';

/** A draft as the client sent it, with its field types already checked. */
export interface DraftInput {
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  timestamp: number | undefined;
}

const DRAFT_KEYS = new Set(['type', 'to', 'topic', 'content', 'timestamp']);

/** Checks the shape of one draft object (the `drafts[i]` or `draft` parameter). */
export function parseDraft(value: unknown, name: string): DraftInput {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest(`${name} is not a dict`);
  const o = value as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (key === 'id') throw badRequest(`${name}: a draft's id is assigned by the server and must not be sent`);
    if (!DRAFT_KEYS.has(key)) throw badRequest(`${name} has an unexpected key: ${key}`);
  }
  for (const key of ['type', 'to', 'topic', 'content']) {
    if (!(key in o)) throw badRequest(`${name}["${key}"] is missing`);
  }
  if (o.type !== '' && o.type !== 'stream' && o.type !== 'private') throw badRequest(`Invalid ${name}["type"]`);
  if (!Array.isArray(o.to) || !o.to.every((x) => Number.isSafeInteger(x))) throw badRequest(`${name}["to"] is not a list of integers`);
  if (typeof o.topic !== 'string') throw badRequest(`${name}["topic"] is not a string`);
  if (typeof o.content !== 'string') throw badRequest(`${name}["content"] is not a string`);
  if (o.timestamp !== undefined && (typeof o.timestamp !== 'number' || !Number.isFinite(o.timestamp))) {
    throw badRequest(`${name}["timestamp"] is not a number`);
  }
  if (typeof o.timestamp === 'number' && o.timestamp < 0) throw badRequest('Timestamp must not be negative.');
  return { type: o.type, to: o.to as number[], topic: o.topic, content: o.content, timestamp: o.timestamp as number | undefined };
}

export function parseDraftList(value: unknown, name: string): DraftInput[] {
  if (!Array.isArray(value)) throw badRequest(`${name} is not a list`);
  return value.map((d, i) => parseDraft(d, `${name}[${i}]`));
}

function checkSyncEnabled(user: User): void {
  if (!parseSettings(USER_SETTING_DEFAULTS, user.settings).enable_drafts_synchronization) {
    throw badRequest('User has disabled synchronizing drafts.');
  }
}

/** The stored columns of a draft, after checking its addressees exist and may be seen. */
async function draftRow(tx: Tx, user: User, d: DraftInput, now: number) {
  if (d.topic.includes('\u0000')) throw badRequest('Topic must not contain null bytes');
  if (d.content.includes('\u0000')) throw badRequest('Content must not contain null bytes');
  let to: number[] = [];
  let topic = '';
  if (d.type === 'stream') {
    if (d.to.length !== 1) throw badRequest('Must specify exactly 1 stream ID for stream messages');
    await accessStreamById(tx, user, d.to[0]!);
    to = [d.to[0]!];
    // A draft is work in progress: overlong text is cut rather than refused, so nothing is lost.
    topic = d.topic.slice(0, LIMITS.maxTopicLength);
  } else if (d.type === 'private') {
    to = [...new Set(d.to)].sort((a, b) => a - b);
    for (const id of to) {
      if (!(await userById(tx, user.realm_id, id))) throw badRequest(`Invalid user ID ${id}`);
    }
  }
  return {
    type: d.type,
    to_ids: JSON.stringify(to),
    topic,
    content: d.content.slice(0, LIMITS.maxMessageLength),
    last_edit_time: d.timestamp === undefined ? now : Math.floor(d.timestamp),
  };
}

export async function checkCreateDrafts(app: AppContext, user: User, drafts: DraftInput[]): Promise<number[]> {
  checkSyncEnabled(user);
  return runAction(app, async (scope) => {
    const created = [];
    for (const d of drafts) created.push(await insertDraft(scope.tx, { user_id: user.id, ...(await draftRow(scope.tx, user, d, scope.now)) }));
    if (created.length > 0) scope.emit({ type: 'drafts', op: 'add', drafts: created.map(presentDraft) }, [user.id]);
    return created.map((d) => d.id);
  });
}

const noSuchDraft = (): ApiError => new ApiError('Draft does not exist', 'BAD_REQUEST', 404);

export async function checkEditDraft(app: AppContext, user: User, draftId: number, draft: DraftInput): Promise<void> {
  checkSyncEnabled(user);
  await runAction(app, async (scope) => {
    if (!(await draftOfUser(scope.tx, user.id, draftId))) throw noSuchDraft();
    const updated = await updateDraft(scope.tx, draftId, await draftRow(scope.tx, user, draft, scope.now));
    scope.emit({ type: 'drafts', op: 'update', draft: presentDraft(updated) }, [user.id]);
  });
}

export async function checkDeleteDraft(app: AppContext, user: User, draftId: number): Promise<void> {
  await runAction(app, async (scope) => {
    if (!(await draftOfUser(scope.tx, user.id, draftId))) throw noSuchDraft();
    await deleteDraft(scope.tx, draftId);
    scope.emit({ type: 'drafts', op: 'remove', draft_id: draftId }, [user.id]);
  });
}

/**
 * Deletes all of a user's stored drafts, for turning `enable_drafts_synchronization` off: the
 * settings action calls this inside its own transaction.
 */
export async function doDeleteAllDrafts(scope: ActionScope, userId: number): Promise<void> {
  for (const id of await deleteDraftsOfUser(scope.tx, userId)) scope.emit({ type: 'drafts', op: 'remove', draft_id: id }, [userId]);
}
