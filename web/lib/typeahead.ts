// Compose typeahead: which token the cursor is in, ranked suggestions, and the markup to insert.
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

export interface TypeaheadUser {
  user_id: number;
  full_name: string;
  email: string;
  is_active?: boolean | undefined;
}

export interface TypeaheadGroup {
  id: number;
  name: string;
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

function fold(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export function matchRank(query: string, candidate: string): number {
  const q = fold(query.trim());
  const c = fold(candidate);
  if (q === '') return 0;
  if (c.startsWith(q)) return 0;
  // Every query word a prefix of consecutive words: "ali smi" finds "Alice Smith".
  const qw = q.split(/\s+/);
  const cw = c.split(/[\s_\-.@]+/);
  for (let i = 0; i + qw.length <= cw.length; i++) {
    if (qw.every((w, j) => cw[i + j]!.startsWith(w))) return 0;
  }
  return c.includes(q) ? 1 : -1;
}

interface Ranked<T> {
  item: T;
  rank: number;
  recent: number;
  order: number;
  name: string;
}

function rankAll<T>(items: readonly T[], query: string, names: (t: T) => string[], recentIndex: (t: T) => number, kindOrder = 0): Ranked<T>[] {
  const out: Ranked<T>[] = [];
  items.forEach((item, order) => {
    let rank = -1;
    for (const n of names(item)) {
      const r = matchRank(query, n);
      if (r >= 0 && (rank < 0 || r < rank)) rank = r;
    }
    if (rank >= 0) out.push({ item, rank, recent: recentIndex(item), order: order + kindOrder * 1e7, name: names(item)[0] ?? '' });
  });
  return out;
}

function byRank<T>(a: Ranked<T>, b: Ranked<T>): number {
  return a.rank - b.rank || a.recent - b.recent || a.order - b.order;
}

function recentLookup(ids: readonly number[] | undefined): (id: number) => number {
  const index = new Map((ids ?? []).map((id, i) => [id, i]));
  return (id) => index.get(id) ?? Number.MAX_SAFE_INTEGER;
}

function sortedByName<T>(items: readonly T[], name: (t: T) => string): T[] {
  return [...items].sort((a, b) => name(a).localeCompare(name(b)));
}

export function matchUsers(
  query: string,
  users: readonly TypeaheadUser[],
  opts: { excludeIds?: readonly number[] | undefined; recentUserIds?: readonly number[] | undefined; limit?: number | undefined } = {},
): TypeaheadUser[] {
  const exclude = new Set(opts.excludeIds ?? []);
  const recent = recentLookup(opts.recentUserIds);
  const candidates = sortedByName(users.filter((u) => u.is_active !== false && !exclude.has(u.user_id)), (u) => u.full_name);
  return rankAll(candidates, query, (u) => [u.full_name, u.email], (u) => recent(u.user_id))
    .sort(byRank)
    .slice(0, opts.limit ?? 8)
    .map((r) => r.item);
}

export function matchStreams(
  query: string,
  streams: readonly TypeaheadStream[],
  opts: { recentStreamIds?: readonly number[] | undefined; limit?: number | undefined } = {},
): TypeaheadStream[] {
  const recent = recentLookup(opts.recentStreamIds);
  return rankAll(sortedByName(streams, (s) => s.name), query, (s) => [s.name], (s) => recent(s.stream_id))
    .sort(byRank)
    .slice(0, opts.limit ?? 8)
    .map((r) => r.item);
}

export function matchTopics(query: string, topics: readonly string[], limit = 8): string[] {
  return rankAll(topics, query, (t) => [t], () => 0)
    .sort(byRank)
    .slice(0, limit)
    .map((r) => r.item);
}

// ---- suggestions ----

function topicsOf(data: TypeaheadData, streamId: number): readonly string[] {
  const t = data.topics;
  if (!t) return [];
  if (t instanceof Map) return t.get(streamId) ?? [];
  return (t as Readonly<Record<number, readonly string[]>>)[streamId] ?? [];
}

function mentionSuggestions(token: TypeaheadToken, data: TypeaheadData, limit: number): Suggestion[] {
  const silent = token.kind === 'silent_mention';
  const at = silent ? '@_' : '@';
  const recent = recentLookup(data.recentUserIds);
  const users = sortedByName((data.users ?? []).filter((u) => u.is_active !== false), (u) => u.full_name);
  const ranked: Ranked<Suggestion>[] = [
    ...rankAll(
      users.map((user): Suggestion => ({ kind: 'user', user, label: user.full_name, markup: `${at}**${user.full_name}|${user.user_id}** ` })),
      token.query,
      (s) => (s.kind === 'user' ? [s.user.full_name, s.user.email] : []),
      (s) => (s.kind === 'user' ? recent(s.user.user_id) : 0),
      0,
    ),
    ...rankAll(
      sortedByName(data.groups ?? [], (g) => g.name).map((group): Suggestion => ({ kind: 'group', group, label: group.name, markup: `${at}*${group.name}* ` })),
      token.query,
      (s) => [s.label],
      () => Number.MAX_SAFE_INTEGER,
      1,
    ),
  ];
  if (!silent) {
    const wildcards = (data.wildcards ?? []).map((name): Suggestion => ({ kind: 'wildcard', name, label: name, markup: `@**${name}** ` }));
    ranked.push(...rankAll(wildcards, token.query, (s) => [s.label], () => Number.MAX_SAFE_INTEGER, 2));
  }
  return ranked.sort(byRank).slice(0, limit).map((r) => r.item);
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
      return rankAll(data.emoji ?? [], token.query, (n) => [n], () => 0)
        .sort(byRank)
        .slice(0, limit)
        .map((r) => ({ kind: 'emoji', name: r.item, label: r.item, markup: `:${r.item}: ` }));
  }
}

export function applySuggestion(text: string, token: TypeaheadToken, suggestion: Suggestion): { text: string; cursor: number } {
  let insert = suggestion.markup;
  const after = text.slice(token.end);
  if (insert.endsWith(' ') && /^\s/.test(after)) insert = insert.slice(0, -1);
  return { text: text.slice(0, token.start) + insert + after, cursor: token.start + insert.length + (insert === suggestion.markup ? 0 : 1) };
}
