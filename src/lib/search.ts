// The highlighting of search matches in message HTML and topics. Parsing the terms and the SQL
// side are in db/queries/search.ts.
import { stopWords, type SearchQuery } from '../db/queries/search.ts';
import { escapeHtml } from './markdown/html.ts';

// The index stems words (porter / english); highlight words that share the query word's stem,
// approximated by the word with a common English suffix taken off.
function stemPrefix(word: string): string {
  const stripped = word.replace(/(ing|ed|es|s|ly)$/, '');
  return stripped.length >= 3 ? stripped : word;
}

function highlightRegex(q: SearchQuery): RegExp | null {
  const all = [...q.words, ...q.phrases.flat()].filter((w) => !stopWords().has(w) || q.phrases.some((p) => p.includes(w)));
  if (all.length === 0) return null;
  const alts = [...new Set(all.map(stemPrefix))].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![\\p{L}\\p{N}_])((?:${alts.join('|')})[\\p{L}\\p{N}_]*)`, 'giu');
}

function highlightText(text: string, re: RegExp): string {
  // Keep character references (&amp;) whole.
  return text
    .split(/(&#?\w+;)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(re, '<span class="highlight">$1</span>')))
    .join('');
}

/** Wraps matches in the text of rendered HTML (never inside tags) in a highlight span. */
export function highlightHtml(html: string, q: SearchQuery): string {
  const re = highlightRegex(q);
  if (!re) return html;
  return html
    .split(/(<[^>]*>)/)
    .map((part, i) => (i % 2 === 1 ? part : highlightText(part, re)))
    .join('');
}

export function highlightTopic(topic: string, q: SearchQuery): string {
  const re = highlightRegex(q);
  const escaped = escapeHtml(topic);
  return re ? highlightText(escaped, re) : escaped;
}
