// Full-text search terms: words and quoted phrases with stop words left out, and the highlighting
// of matches in message HTML and topics. The SQL side is in db/queries/search.ts.
import fs from 'node:fs';
import { escapeHtml } from './markdown/html.ts';

let cachedStopWords: Set<string> | null = null;

/** The English stop words search ignores (also the register snapshot's `stop_words`). */
export function stopWords(): Set<string> {
  if (!cachedStopWords) {
    const text = fs.readFileSync(new URL('../../resources/zulip-english-stopwords.txt', import.meta.url), 'utf8');
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
