// GET /messages: anchors, limits and the choice between a user's history and whole streams.
import type { AppContext } from '../../context.ts';
import type { Realm, User } from '../../db/schema.ts';
import { fetchAfter, fetchAmong, fetchAt, fetchBefore, firstUnread, type FetchSource, type FetchedRow } from '../../db/queries/fetch.ts';
import { streamById, streamsInRealm, subscription } from '../../db/queries/streams.ts';
import { canReadStreamMessages } from '../../lib/access.ts';
import { isGuest } from '../../lib/permissions.ts';
import { badRequest } from '../../lib/errors.ts';
import { LIMITS } from '../../lib/limits.ts';
import { loadMessageRelations } from '../../lib/messages.ts';
import { resolveNarrow, type RawTerm, type Term } from '../../lib/narrow.ts';
import { realmUrl } from '../../lib/realm.ts';
import { highlightHtml, highlightTopic } from '../../lib/search.ts';
import { parseSearch, type SearchQuery } from '../../db/queries/search.ts';
import { presentMessage, type MessageJson } from '../../presenters/message.ts';

/** The anchor the reference reports for `newest` when nothing is newer. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10000000000000000;

export interface FetchParams {
  anchor: number | 'newest' | 'oldest' | 'first_unread';
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
  narrow: RawTerm[];
  applyMarkdown: boolean;
  clientExternalAvatar: boolean;
}

export interface FetchResult {
  anchor: number;
  found_anchor: boolean;
  found_newest: boolean;
  found_oldest: boolean;
  history_limited: boolean;
  messages: MessageJson[];
}

/** Which rows the user may read for this narrow. */
export async function fetchSource(app: AppContext, user: User, terms: Term[]): Promise<FetchSource> {
  const db = app.db.kysely;
  const dialect = app.db.dialect;
  const streamTerm = terms.find((t): t is Extract<Term, { kind: 'stream' }> => t.kind === 'stream' && !t.negated);
  if (streamTerm) {
    const stream = streamTerm.streamId === null ? undefined : await streamById(db, user.realm_id, streamTerm.streamId);
    const sub = stream ? await subscription(db, user.id, stream.id) : undefined;
    if (!stream) throw badRequest('Invalid narrow operator: unknown stream');
    if (canReadStreamMessages(user, stream, sub) && stream.history_public_to_subscribers) {
      return { kind: 'streams', userId: user.id, streamIds: [stream.id], dialect };
    }
    return { kind: 'history', userId: user.id, dialect };
  }
  if (terms.some((t) => t.kind === 'streams-public' && !t.negated)) {
    const streams = await streamsInRealm(db, user.realm_id);
    const ids = streams
      .filter((s) => !s.invite_only && s.history_public_to_subscribers && (!isGuest(user) || s.is_web_public))
      .map((s) => s.id);
    return { kind: 'streams', userId: user.id, streamIds: ids, dialect };
  }
  return { kind: 'history', userId: user.id, dialect };
}

export interface FetchedWindow {
  anchor: number;
  terms: Term[];
  rows: FetchedRow[];
  foundAnchor: boolean;
  foundNewest: boolean;
  foundOldest: boolean;
}

export type WindowParams = Pick<FetchParams, 'anchor' | 'numBefore' | 'numAfter' | 'includeAnchor' | 'narrow'>;

/** The rows around an anchor; `ownOnly` keeps to the user's own messages (flag changes). */
export async function fetchWindow(app: AppContext, user: User, p: WindowParams, opts: { ownOnly?: boolean; max?: number } = {}): Promise<FetchedWindow> {
  const max = opts.max ?? LIMITS.maxMessagesPerFetch;
  if (p.numBefore < 0 || p.numAfter < 0) throw badRequest('num_before and num_after must not be negative');
  if (p.numBefore + p.numAfter > max) {
    throw badRequest(`Too many messages requested (maximum ${max}).`);
  }
  const db = app.db.kysely;
  const terms = await resolveNarrow(db, user, p.narrow);
  const source: FetchSource = opts.ownOnly ? { kind: 'history', userId: user.id, dialect: app.db.dialect } : await fetchSource(app, user, terms);

  let anchor: number;
  if (p.anchor === 'newest') anchor = LARGER_THAN_MAX_MESSAGE_ID;
  else if (p.anchor === 'oldest') anchor = 0;
  else if (p.anchor === 'first_unread') anchor = (await firstUnread(db, source, terms)) ?? LARGER_THAN_MAX_MESSAGE_ID;
  else anchor = p.anchor;

  // Message IDs are 32-bit integers in the database; keep the reported anchor as it was.
  const sqlAnchor = Math.max(-1, Math.min(anchor, 2 ** 31 - 1));
  const before = await fetchBefore(db, source, terms, sqlAnchor, p.numBefore + 1);
  const after = anchor >= 2 ** 31 - 1 ? [] : await fetchAfter(db, source, terms, sqlAnchor, p.numAfter + 1);
  const at = p.includeAnchor ? await fetchAt(db, source, terms, sqlAnchor) : [];
  const rows: FetchedRow[] = [...before.slice(0, p.numBefore).reverse(), ...at, ...after.slice(0, p.numAfter)];
  return { anchor, terms, rows, foundAnchor: at.length > 0, foundNewest: after.length <= p.numAfter, foundOldest: before.length <= p.numBefore };
}

export async function fetchMessages(app: AppContext, user: User, realm: Realm, p: FetchParams): Promise<FetchResult> {
  const db = app.db.kysely;
  const { anchor, terms, rows, foundAnchor, foundNewest, foundOldest } = await fetchWindow(app, user, p);
  const url = realmUrl(app.config, realm);
  const relations = await loadMessageRelations(db, realm, url, rows.map((r) => r.message));
  const search = searchOf(terms);
  const messages = rows.map((r) => {
    const json = presentMessage(r.message, relations.get(r.message.id)!, { applyMarkdown: p.applyMarkdown, clientExternalAvatar: p.clientExternalAvatar }, r.flags);
    if (search) Object.assign(json, highlights(r.message.rendered_content, r.message.topic, search));
    return json;
  });
  return {
    anchor,
    found_anchor: foundAnchor,
    found_newest: foundNewest,
    found_oldest: foundOldest,
    history_limited: false,
    messages,
  };
}

/** The words and phrases of the narrow's (non-negated) search terms, if it has any. */
export function searchOf(terms: Term[]): SearchQuery | null {
  const searches = terms.filter((t): t is Extract<Term, { kind: 'search' }> => t.kind === 'search' && !t.negated);
  if (searches.length === 0) return null;
  return parseSearch(searches.map((t) => t.query).join(' '));
}

export function highlights(renderedContent: string, topic: string, q: SearchQuery): { match_content: string; match_subject: string } {
  return { match_content: highlightHtml(renderedContent, q), match_subject: highlightTopic(topic, q) };
}

/** GET /messages/matches_narrow: the given messages that match, with search highlighting. */
export async function matchesNarrow(app: AppContext, user: User, ids: number[], narrow: RawTerm[]): Promise<Record<string, { match_content: string; match_subject: string }>> {
  const terms = await resolveNarrow(app.db.kysely, user, narrow);
  const source = await fetchSource(app, user, terms);
  const rows = await fetchAmong(app.db.kysely, source, terms, ids);
  const q = searchOf(terms) ?? { words: [], phrases: [] };
  const out: Record<string, { match_content: string; match_subject: string }> = {};
  for (const r of rows) out[String(r.message.id)] = highlights(r.message.rendered_content, r.message.topic, q);
  return out;
}
