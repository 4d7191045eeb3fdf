// The full-text condition of a search narrow, per dialect: SQLite FTS5 or a PostgreSQL tsvector
// expression index (created by migration 0004).
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Dialect } from '../migrations/util.ts';
import type { SearchQuery } from '../../lib/search.ts';

const ftsString = (words: string[]): string => `"${words.join(' ').replace(/"/g, '""')}"`;

/** An FTS5 query: every word and every phrase. */
export const ftsMatch = (q: SearchQuery): string => [...q.words.map((w) => ftsString([w])), ...q.phrases.map(ftsString)].join(' AND ');

/** A condition on `m.id`, the id column of the messages table in the surrounding query. */
export function searchCondition(dialect: Dialect, q: SearchQuery): Expression<SqlBool> {
  if (dialect === 'sqlite') {
    return sql<SqlBool>`m.id in (select rowid from messages_fts where messages_fts match ${ftsMatch(q)})`;
  }
  const parts = [...q.words.map((w) => sql`plainto_tsquery('english'::regconfig, ${w})`), ...q.phrases.map((p) => sql`phraseto_tsquery('english'::regconfig, ${p.join(' ')})`)];
  return sql<SqlBool>`to_tsvector('english'::regconfig, m.topic || ' ' || m.content) @@ (${sql.join(parts, sql` && `)})`;
}
