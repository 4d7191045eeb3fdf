// Typeahead: compose's (which token the cursor is in, ranked suggestions, the markup to insert)
// and the search box's (terms for its last word).
//
// Interface (pure; plain arrays in, plain values out):
//   activeToken(text, cursor) -> TypeaheadToken | undefined
//     kinds: 'mention' (`@ali`, `@**ali`, `@*grou`), 'silent_mention' (`@_ali`, `@_**ali`),
//     'stream' (`#gen`, `#**gen`), 'topic' (`#**general>lun`, also `#**general**>lun`),
//     'emoji' (`:sm`, two characters at least). None inside code (``` blocks or `inline`).
//   suggest(token, data: TypeaheadData, limit = 8) -> Suggestion[]   ranked: a prefix of the
//     whole name or of any word first, then substrings; within each, recent first (data.recent*),
//     then the order given (emoji: popular first) or the name.
//   applySuggestion(text, token, suggestion) -> { text, cursor }   inserts suggestion.markup:
//     `@**Full Name|id** `, `@_**Full Name|id** `, `@*group* `, `@**all** `, `#**stream**`
//     (no space: typing `>` goes on to its topics), `#**stream>topic** `, `:emoji_name: `
//   matchUsers(query, users, { excludeIds?, recentUserIds?, limit? }) -> TypeaheadUser[]   DM recipients
//     (query: the text after the last comma of the field)
//   matchStreams(query, streams, { recentStreamIds?, limit? }) -> TypeaheadStream[]   compose "Stream"
//   matchTopics(query, topics, limit?) -> string[]   compose "Topic" (topics most recent first)
//   matchRank(query, candidate) -> 0 (prefix of the whole or a word) | 1 (substring) | -1 (none)
//   searchSuggestions(text, data: SearchData, limit = 8) -> SearchSuggestion[]   the search box: for its
//     last word, operators (`stream:`, `sender:`), whole terms (`has:link`, `is:starred`), streams
//     (`stream:design`), people (`sender:alice@x.com`) and the topics of the stream the text names;
//     after an operator, its operands. Each says what it finds (`detail`).

import { canonicalOperator, describeNarrow, parseSearch, quoteOperand, type NarrowLookups } from './narrow.ts';

export interface TypeaheadUser {
  user_id: number;
  full_name: string;
  email: string;
  is_active?: boolean | undefined;
}

export interface TypeaheadGroup {
  id: number;
  name: string;
  description?: string;
}

export interface TypeaheadStream {
  stream_id: number;
  name: string;
}

export type TokenKind = 'mention' | 'silent_mention' | 'stream' | 'topic' | 'emoji';

export interface TypeaheadToken {
  kind: TokenKind;
  query: string;
  /** Index of the trigger character in the text. */
  start: number;
  /** The cursor. */
  end: number;
  /** For 'topic': the stream name typed. */
  stream?: string | undefined;
}

export interface TypeaheadData {
  users?: readonly TypeaheadUser[] | undefined;
  groups?: readonly TypeaheadGroup[] | undefined;
  streams?: readonly TypeaheadStream[] | undefined;
  /** Topic names per stream ID, most recent first. */
  topics?: ReadonlyMap<number | undefined, readonly string[]> | Readonly<Record<number, readonly string[]>>;
  /** Emoji names, most popular first. */
  emoji?: readonly string[] | undefined;
  /** Wildcard mentions to offer, e.g. ['all', 'everyone', 'channel', 'topic'] in a stream message. */
  wildcards?: readonly string[] | undefined;
  recentUserIds?: readonly number[] | undefined;
  recentStreamIds?: readonly number[] | undefined;
}

export type Suggestion = { markup: string; label: string } & (
  | { kind: 'user'; user: TypeaheadUser }
  | { kind: 'group'; group: TypeaheadGroup }
  | { kind: 'wildcard'; name: string }
  | { kind: 'stream'; stream: TypeaheadStream }
  | { kind: 'topic'; stream: TypeaheadStream; topic: string }
  | { kind: 'emoji'; name: string }
);

// ---- the token at the cursor ----

// What may stand before a trigger: the start, whitespace or opening punctuation.
const BEFORE = String.raw`(?:^|(?<=[\s(\[{>"']))`;
// A query of at most three words that does not start with a space (`# heading` is Markdown).
const WORDS = String.raw`(?:[^\s*@#>:\`][^*@#>\n\`]{0,39})?`;
const TOPIC_RE = new RegExp(String.raw`${BEFORE}#\*\*([^*>\n\`]+)(?:\*\*)?>([^*\n\`]{0,60})$`);
const STREAM_RE = new RegExp(String.raw`${BEFORE}#(?:\*\*)?(${WORDS})$`);
const MENTION_RE = new RegExp(String.raw`${BEFORE}@(_?)(?:\*\*?)?(${WORDS})$`);
const EMOJI_RE = new RegExp(String.raw`${BEFORE}:([\p{L}\p{N}_+-]{2,})$`, 'u');

function inCode(before: string): boolean {
  if ((before.match(/^\s*(```|~~~)/gm)?.length ?? 0) % 2 === 1) return true;
  const line = before.slice(before.lastIndexOf('\n') + 1);
  return (line.match(/`/g)?.length ?? 0) % 2 === 1;
}

function tooManyWords(query: string): boolean {
  return query.split(' ').length > 3 || /\s\s/.test(query);
}

export function activeToken(text: string, cursor: number): TypeaheadToken | undefined {
  const before = text.slice(0, cursor);
  if (inCode(before)) return undefined;
  let m = TOPIC_RE.exec(before);
  if (m) return { kind: 'topic', stream: m[1]!, query: m[2]!, start: m.index, end: cursor };
  m = EMOJI_RE.exec(before);
  if (m) return { kind: 'emoji', query: m[1]!, start: m.index, end: cursor };
  m = MENTION_RE.exec(before);
  if (m && !tooManyWords(m[2]!)) return { kind: m[1] ? 'silent_mention' : 'mention', query: m[2]!, start: m.index, end: cursor };
  m = STREAM_RE.exec(before);
  if (m && !tooManyWords(m[1]!)) return { kind: 'stream', query: m[1]!, start: m.index, end: cursor };
  return undefined;
}

// ---- ranking ----

// Folding (case, accents) is the costly part of matching 5,000 names on every keystroke; names
// repeat from keystroke to keystroke, so their folded forms are kept.
const folded = new Map<string, string>();
function fold(s: string): string {
  let f = folded.get(s);
  if (f === undefined) {
    f = s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    if (folded.size > 100_000) folded.clear();
    folded.set(s, f);
  }
  return f;
}

interface Query {
  q: string;
  words: string[];
}

function prepare(query: string): Query {
  const q = fold(query.trim());
  return { q, words: q.split(/\s+/) };
}

function rankFolded(query: Query, c: string): number {
  if (query.q === '' || c.startsWith(query.q)) return 0;
  if (!c.includes(query.words[0]!)) return -1;
  // Every query word a prefix of consecutive words: "ali smi" finds "Alice Smith".
  const cw = c.split(/[\s_\-.@]+/);
  for (let i = 0; i + query.words.length <= cw.length; i++) {
    if (query.words.every((w, j) => cw[i + j]!.startsWith(w))) return 0;
  }
  return c.includes(query.q) ? 1 : -1;
}

export function matchRank(query: string, candidate: string): number {
  return rankFolded(prepare(query), fold(candidate));
}

interface Ranked<T> {
  item: T;
  rank: number;
  recent: number;
  kind: number;
  order: number;
}

const NOT_RECENT = Number.MAX_SAFE_INTEGER;
// Case- and accent-blind order from the cached folded forms: a collator per comparison costs
// milliseconds over thousands of matches.
function byFolded(a: string, b: string): number {
  const fa = fold(a);
  const fb = fold(b);
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}

/** Matches and ranks; `byName` breaks ties by the first name, else the given order does. */
function rankAll<T>(
  items: readonly T[],
  query: string,
  names: (t: T) => readonly string[],
  recent: (t: T) => number = () => NOT_RECENT,
  kind = 0,
): Ranked<T>[] {
  const prepared = prepare(query);
  const out: Ranked<T>[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    let rank = -1;
    for (const n of names(item)) {
      const r = rankFolded(prepared, fold(n));
      if (r >= 0 && (rank < 0 || r < rank)) rank = r;
      if (rank === 0) break;
    }
    if (rank >= 0) out.push({ item, rank, recent: recent(item), kind, order: i });
  }
  return out;
}

function top<T>(ranked: Ranked<T>[], limit: number, name?: (t: T) => string): T[] {
  const cmp = (a: Ranked<T>, b: Ranked<T>) =>
    a.rank - b.rank || a.recent - b.recent || a.kind - b.kind || (name ? byFolded(name(a.item), name(b.item)) : 0) || a.order - b.order;
  // Only `limit` results show: keep the best few rather than sorting thousands of matches.
  const best: Ranked<T>[] = [];
  for (const r of ranked) {
    if (best.length === limit && cmp(r, best[limit - 1]!) >= 0) continue;
    let i = best.length;
    while (i > 0 && cmp(r, best[i - 1]!) < 0) i--;
    best.splice(i, 0, r);
    if (best.length > limit) best.pop();
  }
  return best.map((r) => r.item);
}

function recentLookup(ids: readonly number[] | undefined): (id: number) => number {
  const index = new Map((ids ?? []).map((id, i) => [id, i]));
  return (id) => index.get(id) ?? NOT_RECENT;
}

export function matchUsers(
  query: string,
  users: readonly TypeaheadUser[],
  opts: { excludeIds?: readonly number[] | undefined; recentUserIds?: readonly number[] | undefined; limit?: number | undefined } = {},
): TypeaheadUser[] {
  const exclude = new Set(opts.excludeIds ?? []);
  const recent = recentLookup(opts.recentUserIds);
  const candidates = users.filter((u) => u.is_active !== false && !exclude.has(u.user_id));
  return top(rankAll(candidates, query, (u) => [u.full_name, u.email], (u) => recent(u.user_id)), opts.limit ?? 8, (u) => u.full_name);
}

export function matchStreams(
  query: string,
  streams: readonly TypeaheadStream[],
  opts: { recentStreamIds?: readonly number[] | undefined; limit?: number | undefined } = {},
): TypeaheadStream[] {
  const recent = recentLookup(opts.recentStreamIds);
  return top(rankAll(streams, query, (s) => [s.name], (s) => recent(s.stream_id)), opts.limit ?? 8, (s) => s.name);
}

export function matchTopics(query: string, topics: readonly string[], limit = 8): string[] {
  return top(rankAll(topics, query, (t) => [t]), limit);
}

// ---- suggestions ----

function topicsOf(data: TypeaheadData, streamId: number): readonly string[] {
  const t = data.topics;
  if (!t) return [];
  if (t instanceof Map) return t.get(streamId) ?? [];
  return (t as Readonly<Record<number, readonly string[]>>)[streamId] ?? [];
}

type Mentionable = { kind: 'user'; user: TypeaheadUser } | { kind: 'group'; group: TypeaheadGroup } | { kind: 'wildcard'; name: string };

const mentionName = (m: Mentionable): string => (m.kind === 'user' ? m.user.full_name : m.kind === 'group' ? m.group.name : m.name);

function mentionSuggestions(token: TypeaheadToken, data: TypeaheadData, limit: number): Suggestion[] {
  const silent = token.kind === 'silent_mention';
  const at = silent ? '@_' : '@';
  const recent = recentLookup(data.recentUserIds);
  const users: Mentionable[] = (data.users ?? []).filter((u) => u.is_active !== false).map((user) => ({ kind: 'user', user }));
  const ranked = [
    ...rankAll(users, token.query, (m) => (m.kind === 'user' ? [m.user.full_name, m.user.email] : []), (m) => (m.kind === 'user' ? recent(m.user.user_id) : NOT_RECENT), 0),
    ...rankAll<Mentionable>((data.groups ?? []).map((group) => ({ kind: 'group', group })), token.query, (m) => [mentionName(m)], undefined, 1),
  ];
  // Silent wildcards notify nobody, so they are not offered.
  if (!silent) ranked.push(...rankAll<Mentionable>((data.wildcards ?? []).map((name) => ({ kind: 'wildcard', name })), token.query, (m) => [mentionName(m)], undefined, 2));
  return top(ranked, limit, mentionName).map((m): Suggestion => {
    if (m.kind === 'user') return { kind: 'user', user: m.user, label: m.user.full_name, markup: `${at}**${m.user.full_name}|${m.user.user_id}** ` };
    if (m.kind === 'group') return { kind: 'group', group: m.group, label: m.group.name, markup: `${at}*${m.group.name}* ` };
    return { kind: 'wildcard', name: m.name, label: m.name, markup: `@**${m.name}** ` };
  });
}

export function suggest(token: TypeaheadToken, data: TypeaheadData, limit = 8): Suggestion[] {
  switch (token.kind) {
    case 'mention':
    case 'silent_mention':
      return mentionSuggestions(token, data, limit);
    case 'stream':
      return matchStreams(token.query, data.streams ?? [], { recentStreamIds: data.recentStreamIds, limit }).map((stream) => ({
        kind: 'stream',
        stream,
        label: stream.name,
        markup: `#**${stream.name}**`,
      }));
    case 'topic': {
      const name = fold(token.stream ?? '');
      const stream = (data.streams ?? []).find((s) => fold(s.name) === name);
      if (!stream) return [];
      const topics = matchTopics(token.query, topicsOf(data, stream.stream_id), limit);
      const typed = token.query.trim();
      // The topic being typed may not exist yet: linking to it is still useful.
      if (typed && !topics.some((t) => fold(t) === fold(typed))) topics.push(typed);
      return topics.slice(0, limit).map((topic) => ({ kind: 'topic', stream, topic, label: topic, markup: `#**${stream.name}>${topic}** ` }));
    }
    case 'emoji':
      return top(rankAll(data.emoji ?? [], token.query, (n) => [n]), limit).map((name) => ({ kind: 'emoji', name, label: name, markup: `:${name}: ` }));
  }
}

export function applySuggestion(text: string, token: TypeaheadToken, suggestion: Suggestion): { text: string; cursor: number } {
  let insert = suggestion.markup;
  const after = text.slice(token.end);
  if (insert.endsWith(' ') && /^\s/.test(after)) insert = insert.slice(0, -1);
  return { text: text.slice(0, token.start) + insert + after, cursor: token.start + insert.length + (insert === suggestion.markup ? 0 : 1) };
}

// ---- the search box ----

export interface SearchData {
  streams: readonly TypeaheadStream[];
  users: readonly TypeaheadUser[];
  /** A stream's topic names, most recent first. */
  topics?: ((streamId: number) => readonly string[]) | undefined;
  recentUserIds?: readonly number[] | undefined;
  /** To read the text before the last word and to say what each suggestion finds. */
  lookups: NarrowLookups;
}

export interface SearchSuggestion {
  /** The term as it goes into the box: `stream:design`, `has:link`, or an operator to go on from, `sender:`. */
  label: string;
  /** What it finds: "#design", "Messages with links". */
  detail: string;
  /** The box's text with the suggestion in place of its last word. */
  text: string;
  /** A whole term (picking it searches), or an operator whose operand is still to type. */
  complete: boolean;
}

const SEARCH_OPERATORS: [string, string][] = [
  ['stream', 'Messages in a stream'],
  ['topic', 'Messages in a topic'],
  ['sender', 'Messages sent by someone'],
  ['dm', 'Direct messages with someone'],
  ['has', 'Messages with links, images, attachments or reactions'],
  ['is', 'Starred, mentions, unread, direct messages…'],
];
const SEARCH_VALUES: Record<string, string[]> = {
  is: ['starred', 'mentioned', 'unread', 'dm', 'resolved', 'followed', 'alerted'],
  has: ['link', 'image', 'attachment', 'reaction'],
};

export function searchSuggestions(text: string, data: SearchData, limit = 8): SearchSuggestion[] {
  const start = /\S*$/.exec(text)!.index;
  const word = text.slice(start);
  // A quoted phrase is searched as it is typed.
  if (word === '' || word === '-' || word.includes('"')) return [];
  const before = text.slice(0, start);
  const out: SearchSuggestion[] = [];
  const term = (negated: string, operator: string, operand: string, shown: string) => {
    const detail = describeNarrow([{ operator, operand }], data.lookups);
    const label = `${negated}${operator}:${quoteOperand(shown)}`;
    out.push({ label, detail: negated ? `Leaving out ${detail.charAt(0).toLowerCase()}${detail.slice(1)}` : detail, text: `${before}${label} `, complete: true });
  };
  // A word alone suggests only the streams and people it starts a word of (one letter is in most names).
  const stream = (negated: string, query: string, prefixOnly = false) => {
    for (const s of matchStreams(query, data.streams, { limit })) if (!prefixOnly || matchRank(query, s.name) === 0) term(negated, 'stream', String(s.stream_id), s.name);
  };
  const people = (negated: string, operator: string, query: string, prefixOnly = false) => {
    for (const u of matchUsers(query, data.users, { recentUserIds: data.recentUserIds, limit })) if (!prefixOnly || matchRank(query, u.full_name) === 0 || matchRank(query, u.email) === 0) term(negated, operator, u.email, u.email);
  };
  const values = (negated: string, operator: string, query: string) => {
    for (const v of SEARCH_VALUES[operator] ?? []) if (v.startsWith(query.toLowerCase())) term(negated, operator, v, v);
  };

  // The topics of the stream the text names (`stream:design topic:lau`, or `stream:design lau`).
  const topics = (negated: string, query: string, prefixOnly = false) => {
    const terms = parseSearch(before, data.lookups);
    const streamTerm = terms.find((t) => t.operator === 'stream' && !t.negated && /^\d+$/.test(t.operand));
    // Once a topic is named, another would find nothing.
    if (!streamTerm || terms.some((t) => t.operator === 'topic' && !t.negated)) return;
    for (const topic of matchTopics(query, data.topics?.(Number(streamTerm.operand)) ?? [], limit)) {
      if (prefixOnly && matchRank(query, topic) !== 0) continue;
      const label = `${negated}topic:${quoteOperand(topic)}`;
      out.push({ label, detail: describeNarrow([streamTerm, { operator: 'topic', operand: topic }], data.lookups), text: `${before}${label} `, complete: true });
    }
  };

  const op = /^(-?)([^:]+):(.*)$/.exec(word);
  if (op) {
    const [, negated, typed, query] = op as unknown as [string, string, string, string];
    const operator = canonicalOperator(typed);
    if (operator === 'stream') stream(negated, query);
    else if (operator === 'sender' || operator === 'dm' || operator === 'dm-including') people(negated, operator, query);
    else if (operator === 'is' || operator === 'has') values(negated, operator, query);
    else if (operator === 'topic') topics(negated, query);
    return out.slice(0, limit);
  }
  const negated = word.startsWith('-') ? '-' : '';
  const query = word.slice(negated.length);
  const q = query.toLowerCase();
  for (const [name, detail] of SEARCH_OPERATORS) {
    if (name.startsWith(q)) out.push({ label: `${negated}${name}:`, detail, text: `${before}${negated}${name}:`, complete: false });
  }
  // In a stream's search its topics matter most, after the operators the word may start.
  topics(negated, query, true);
  for (const operator of ['is', 'has']) if (q.length >= 2) values(negated, operator, query);
  stream(negated, query, true);
  if (!negated) people('', 'sender', query, true);
  return out.slice(0, limit);
}
