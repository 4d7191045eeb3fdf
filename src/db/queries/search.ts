// Full-text search terms (words and quoted phrases with stop words left out) and the full-text
// condition of a search narrow, per dialect: SQLite FTS5 or a PostgreSQL tsvector expression index
// (created by migration 0004). The highlighting of matches is in lib/search.ts.
import fs from 'node:fs';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Dialect } from '../migrations/util.ts';

let cachedStopWords: Set<string> | null = null;

/** The English stop words search ignores (also the register snapshot's `stop_words`). */
export function stopWords(): Set<string> {
  if (!cachedStopWords) {
    const text = fs.readFileSync(new URL('../../../resources/zulip-english-stopwords.txt', import.meta.url), 'utf8');
    cachedStopWords = new Set(text.split(/\r?\n/).map((w) => w.trim().toLowerCase()).filter(Boolean));
  }
  return cachedStopWords;
}

export interface SearchQuery {
  /** Single words, lower case, stop words removed. */
  words: string[];
  /** Quoted phrases, each a list of lower-case words. */
  phrases: string[][];
}

const WORD_RE = /[\p{L}\p{N}_]+/gu;

const wordsOf = (text: string): string[] => [...text.toLowerCase().matchAll(WORD_RE)].map((m) => m[0]);

export function parseSearch(query: string): SearchQuery {
  const phrases: string[][] = [];
  const rest = query.replace(/"([^"]*)"/g, (_m, phrase: string) => {
    const w = wordsOf(phrase);
    if (w.length > 0) phrases.push(w);
    return ' ';
  });
  const stop = stopWords();
  const words = [...new Set(wordsOf(rest).filter((w) => !stop.has(w)))];
  return { words, phrases };
}

export const isEmptySearch = (q: SearchQuery): boolean => q.words.length === 0 && q.phrases.length === 0;

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
