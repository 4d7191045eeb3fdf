// The message-fetch query: which messages a user may see, narrowed, around an anchor.
import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Conn, Tx } from '../database.ts';
import type { Database, Message } from '../schema.ts';
import { FLAG_BITS } from '../flags.ts';
import { followedCondition, notMutedCondition } from './user-topics.ts';
import type { Dialect } from '../migrations/util.ts';
import { ftsMatch, isEmptySearch, parseSearch, searchCondition, type SearchQuery } from './search.ts';

/** A narrow term with names resolved; `never` marks a term that can match nothing. */
export type Term = { negated: boolean } & (
  | { kind: 'stream'; streamId: number | null }
  | { kind: 'streams-public' }
  | { kind: 'topic'; topic: string }
  | { kind: 'sender'; userId: number | null }
  | { kind: 'dm'; recipientId: number | null }
  | { kind: 'dm-including'; userId: number | null }
  | { kind: 'is'; what: 'dm' | 'starred' | 'unread' | 'mentioned' | 'alerted' | 'resolved' | 'followed' }
  | { kind: 'has'; what: 'link' | 'attachment' | 'image' | 'reaction' }
  | { kind: 'id'; id: number }
  | { kind: 'in-home' }
  | { kind: 'search'; query: string }
);

type Q = Conn | Tx;

/**
 * `history`: the messages the user received (user_messages rows).
 * `streams`: every message of these streams (readable, with history public to subscribers);
 * the user's row, when there is one, supplies the flags.
 */
export type FetchSource = ({ kind: 'history'; userId: number } | { kind: 'streams'; userId: number; streamIds: number[] }) & { dialect: Dialect };

type EB = ExpressionBuilder<Database & { m: Database['messages']; um: Database['user_messages'] }, 'm' | 'um'>;

const flagsExpr = (source: FetchSource) => (source.kind === 'history' ? sql<number>`um.flags` : sql<number>`coalesce(um.flags, ${FLAG_BITS.read | FLAG_BITS.historical})`);

function termCondition(eb: EB, term: Term, source: FetchSource, terms: Term[]): Expression<SqlBool> {
  const flags = flagsExpr(source);
  const none = sql<SqlBool>`1 = 0`;
  switch (term.kind) {
    case 'stream':
      return term.streamId === null ? none : eb('m.stream_id', '=', term.streamId);
    case 'streams-public':
      return source.kind === 'streams' ? eb('m.stream_id', 'in', source.streamIds.length ? source.streamIds : [-1]) : none;
    case 'topic':
      return eb.and([eb('m.stream_id', 'is not', null), eb(sql`lower(m.topic)`, '=', term.topic.toLowerCase())]);
    case 'sender':
      return term.userId === null ? none : eb('m.sender_id', '=', term.userId);
    case 'dm':
      return term.recipientId === null ? none : eb('m.recipient_id', '=', term.recipientId);
    case 'dm-including':
      if (term.userId === null) return none;
      return eb.and([
        eb('m.stream_id', 'is', null),
        eb.exists(
          eb
            .selectFrom('user_messages as inc')
            .select('inc.message_id')
            .whereRef('inc.message_id', '=', 'm.id')
            .where('inc.user_id', '=', term.userId),
        ),
      ]);
    case 'is':
      switch (term.what) {
        case 'dm':
          return eb('m.stream_id', 'is', null);
        case 'starred':
          return sql<SqlBool>`(${flags} & ${FLAG_BITS.starred}) <> 0`;
        case 'unread': {
          const unread = sql<SqlBool>`(${flags} & ${FLAG_BITS.read}) = 0`;
          // Muted streams and topics leave unread totals, as they leave an unread view that
          // names no stream or topic; narrowing to one still shows its unread messages.
          if (term.negated || terms.some((t) => (t.kind === 'stream' || t.kind === 'topic') && !t.negated)) return unread;
          return eb.and([unread, notMutedCondition(source.userId)]);
        }
        case 'mentioned':
          return sql<SqlBool>`(${flags} & ${FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned}) <> 0`;
        case 'alerted':
          return sql<SqlBool>`(${flags} & ${FLAG_BITS.has_alert_word}) <> 0`;
        case 'resolved':
          return eb('m.topic', 'like', '\u2714 %');
        case 'followed':
          return followedCondition(source.userId);
      }
      return none;
    case 'has':
      switch (term.what) {
        case 'link':
          return eb('m.has_link', '=', 1);
        case 'attachment':
          return eb('m.has_attachment', '=', 1);
        case 'image':
          return eb('m.has_image', '=', 1);
        case 'reaction':
          return eb.exists(eb.selectFrom('reactions as r').select('r.id').whereRef('r.message_id', '=', 'm.id'));
      }
      return none;
    case 'id':
      return eb('m.id', '=', term.id);
    case 'in-home':
      // Stream muting applies even within a stream narrow here, as the reference's `in:home`.
      return notMutedCondition(source.userId);
    case 'search': {
      const q = parseSearch(term.query);
      // Positive searches on SQLite are the driving FTS join of baseQuery.
      if (isEmptySearch(q) || (ftsDriven(source, terms) && !term.negated)) return sql<SqlBool>`1 = 1`;
      return searchCondition(source.dialect, q);
    }
  }
}

/**
 * The combined positive search of the narrow, when SQLite's FTS index drives the query: walking
 * the index newest first stops after a page of a common word's matches. Within one stream, topic
 * or conversation it would walk past nearly every match to find the few there (a common word in a
 * 300-message stream of a 1,000,000-message organization: 500-900 ms), so those narrows walk
 * their own messages and test each against the index (about 10 ms).
 */
function ftsDriven(source: FetchSource, terms: Term[]): SearchQuery | null {
  if (source.dialect !== 'sqlite') return null;
  if (terms.some((t) => !t.negated && (t.kind === 'stream' || t.kind === 'topic' || t.kind === 'dm'))) return null;
  const searches = terms.filter((t) => t.kind === 'search' && !t.negated);
  if (searches.length === 0) return null;
  const q = parseSearch(searches.map((t) => (t as { query: string }).query).join(' '));
  return isEmptySearch(q) ? null : q;
}

function baseQuery(db: Q, source: FetchSource, terms: Term[]) {
  let q =
    source.kind === 'history'
      ? db.selectFrom('user_messages as um').innerJoin('messages as m', 'm.id', 'um.message_id').where('um.user_id', '=', source.userId)
      : db
          .selectFrom('messages as m')
          .leftJoin('user_messages as um', (j) => j.onRef('um.message_id', '=', 'm.id').on('um.user_id', '=', source.userId))
          .where('m.stream_id', 'in', source.streamIds.length ? source.streamIds : [-1]);
  const fts = ftsDriven(source, terms);
  if (fts) {
    // Walking the FTS index by rowid, newest first, stops after the page instead of first
    // collecting every match of a common word.
    const joined = (q as unknown as { innerJoin(t: unknown, f: (j: { on(e: unknown): unknown }) => unknown): typeof q }).innerJoin(
      sql`messages_fts`.as('f'),
      (j) => j.on(sql`f.rowid = m.id`),
    );
    q = joined.where(sql<SqlBool>`f.messages_fts match ${ftsMatch(fts)}`);
  }
  return q.where((eb) => {
    const conds = terms.map((t) => {
      const c = termCondition(eb as unknown as EB, t, source, terms);
      return t.negated ? eb.not(c) : c;
    });
    return conds.length ? eb.and(conds) : sql<SqlBool>`1 = 1`;
  });
}

export interface FetchedRow {
  message: Message;
  flags: number;
}

/** The column the window walks: the user's rows drive a history fetch, messages a stream fetch. */
const idColumn = (source: FetchSource, terms: Term[]) => (ftsDriven(source, terms) ? 'f.rowid' : source.kind === 'history' ? 'um.message_id' : 'm.id') as 'm.id';

async function run(
  db: Q,
  source: FetchSource,
  terms: Term[],
  where: (q: ReturnType<typeof baseQuery>, id: 'm.id') => ReturnType<typeof baseQuery>,
  order: 'asc' | 'desc',
  limit: number,
): Promise<FetchedRow[]> {
  if (limit <= 0) return [];
  const id = idColumn(source, terms);
  const rows = await where(baseQuery(db, source, terms), id)
    .selectAll('m')
    .select(flagsExpr(source).as('user_flags'))
    .orderBy(id, order)
    .limit(limit)
    .execute();
  return rows.map((r) => {
    const { user_flags, ...message } = r as unknown as Message & { user_flags: number };
    return { message: message as Message, flags: Number(user_flags) };
  });
}

export const fetchBefore = (db: Q, source: FetchSource, terms: Term[], anchor: number, limit: number) =>
  run(db, source, terms, (q, id) => q.where(id, '<', anchor), 'desc', limit);

export const fetchAfter = (db: Q, source: FetchSource, terms: Term[], anchor: number, limit: number) =>
  run(db, source, terms, (q, id) => q.where(id, '>', anchor), 'asc', limit);

export const fetchAt = (db: Q, source: FetchSource, terms: Term[], anchor: number) =>
  run(db, source, terms, (q, id) => q.where(id, '=', anchor), 'asc', 1);

/** The oldest unread message matching the narrow, if any. */
export async function firstUnread(db: Q, source: FetchSource, terms: Term[]): Promise<number | null> {
  const rows = await run(db, source, [...terms, { kind: 'is', what: 'unread', negated: false }], (q) => q, 'asc', 1);
  return rows[0]?.message.id ?? null;
}

/** Which of these messages match the narrow (for GET /messages/matches_narrow). */
export const fetchAmong = (db: Q, source: FetchSource, terms: Term[], ids: readonly number[]) =>
  ids.length === 0 ? Promise.resolve([]) : run(db, source, terms, (q, id) => q.where(id, 'in', [...ids]), 'asc', ids.length);
