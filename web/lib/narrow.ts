// Narrows in their three forms: the search box text, the API's narrow, and the URL hash.
//
// Interface (pure; no DOM, no store: callers pass lookups built from their store):
//   type NarrowTerm = { operator: string; operand: string; negated?: boolean }
//     Operators are canonical: stream, streams, topic, sender, dm, dm-including, is, has, in,
//     near, with, id, search. Operands are strings as in the reference web app: a stream term
//     holds the stream ID ("5") when it is known, else the name typed; sender/dm/dm-including
//     hold emails ("a@x.com,b@x.com"), or IDs ("7,9") for users the lookups do not know.
//   makeLookups(streams, users, myUserId?, emptyTopicName?) -> NarrowLookups   maps over plain arrays
//     ({stream_id, name}[], {user_id, email, full_name}[]); or implement NarrowLookups over a store
//   parseSearch(text, lookups) -> NarrowTerm[]     `stream:general topic:"lunch time" -is:starred pizza`
//   unparseSearch(terms, lookups) -> string        back to search box text (quotes where needed)
//   quoteOperand(operand) -> string                an operand as the search box takes it (`"design team"`)
//   describeNarrow(terms, lookups) -> string       page heading: "#general > lunch", "Starred messages",
//                                                  "Search results for …"
//   narrowToHash(terms, lookups) -> string         "#narrow/channel/5-general/topic/lunch"; [] -> "#feed"
//     (users as the reference: "#narrow/dm/7-Alice-Smith", "#narrow/dm/7,9-group", "#narrow/sender/7-Alice-Smith";
//     reading takes any suffix, e.g. the permalink form "7,9,11-dm", and leaves out myUserId from a group)
//   hashToNarrow(hash, lookups) -> NarrowTerm[] | undefined   undefined: not a narrow hash (#settings…)
//   toApiNarrow(terms, lookups) -> ApiNarrowTerm[] for GET /messages (drops near/with/in, IDs as numbers)
//   nearMessageId(terms) -> number | undefined     the `near`/`with` anchor
//   conversationOf(terms, lookups) -> { type: 'stream', streamId, topic? } | { type: 'private', userIds } | undefined
//   streamNarrow(streamId, topic?), dmNarrow(userIds, lookups), senderNarrow(userId, lookups) -> NarrowTerm[]
//   matchesNarrow(message, terms, lookups) -> boolean | undefined   whether a new or edited message
//     belongs in a view; undefined where only the server knows (search, has:, is:followed,
//     streams:public): ask GET /messages/matches_narrow or refetch
//   encodeHashComponent(s) / decodeHashComponent(s): the reference's hash escaping ('%' -> '.')
// `in:home`/`in:all` are not API operators: the caller hides muted conversations for in:home.

export interface NarrowTerm {
  operator: string;
  operand: string;
  negated?: boolean | undefined;
}

export interface ApiNarrowTerm {
  operator: string;
  operand: string | number | number[];
  negated?: boolean | undefined;
}

export interface NarrowStream {
  stream_id: number;
  name: string;
}

export interface NarrowUser {
  user_id: number;
  email: string;
  full_name: string;
}

export interface NarrowLookups {
  streamById(id: number): NarrowStream | undefined;
  /** Case-insensitive, as stream names are unique without case. */
  streamByName(name: string): NarrowStream | undefined;
  userById(id: number): NarrowUser | undefined;
  /** Case-insensitive. */
  userByEmail(email: string): NarrowUser | undefined;
  /** A person typed by name in the search box (`sender:alice`): see `userByName`. */
  userByName?(name: string): NarrowUser | undefined;
  myUserId?: number | undefined;
  /** How the empty topic shows (the register's `realm_empty_topic_display_name`). */
  emptyTopicName?: string | undefined;
}

/** The one person with this full name, or else the one whose first name it is (without case); none when several. */
export function userByName<U extends NarrowUser>(users: Iterable<U>, name: string): U | undefined {
  const want = name.trim().toLowerCase();
  const all = [...users];
  const one = (found: U[]) => (found.length === 1 ? found[0] : undefined);
  return one(all.filter((u) => u.full_name.toLowerCase() === want)) ?? one(all.filter((u) => u.full_name.toLowerCase().split(/\s+/)[0] === want));
}

export function makeLookups(
  streams: readonly NarrowStream[],
  users: readonly NarrowUser[],
  myUserId?: number,
  emptyTopicName?: string,
): NarrowLookups {
  const sById = new Map(streams.map((s) => [s.stream_id, s]));
  const sByName = new Map(streams.map((s) => [s.name.toLowerCase(), s]));
  const uById = new Map(users.map((u) => [u.user_id, u]));
  const uByEmail = new Map(users.map((u) => [u.email.toLowerCase(), u]));
  return {
    streamById: (id) => sById.get(id),
    streamByName: (name) => sByName.get(name.toLowerCase()),
    userById: (id) => uById.get(id),
    userByEmail: (email) => uByEmail.get(email.trim().toLowerCase()),
    userByName: (name) => userByName(users, name),
    myUserId,
    emptyTopicName,
  };
}

const ALIASES: Record<string, string> = {
  channel: 'stream',
  channels: 'streams',
  subject: 'topic',
  from: 'sender',
  'pm-with': 'dm',
  pm: 'dm',
  'group-pm-with': 'dm-including',
  'pm-including': 'dm-including',
};
const OPERATORS = new Set(['stream', 'streams', 'topic', 'sender', 'dm', 'dm-including', 'is', 'has', 'in', 'near', 'with', 'id', 'search']);
const USER_OPERATORS = new Set(['sender', 'dm', 'dm-including']);
const HAS_PLURALS: Record<string, string> = { links: 'link', images: 'image', attachments: 'attachment', reactions: 'reaction' };

export function canonicalOperator(operator: string): string {
  const op = operator.toLowerCase();
  return ALIASES[op] ?? op;
}

function canonicalOperand(operator: string, operand: string, lookups: NarrowLookups): string {
  switch (operator) {
    case 'stream': {
      if (/^\d+$/.test(operand) && lookups.streamById(Number(operand))) return operand;
      const stream = lookups.streamByName(operand);
      return stream ? String(stream.stream_id) : operand;
    }
    case 'is': {
      const v = operand.toLowerCase();
      return v === 'private' ? 'dm' : v;
    }
    case 'has': {
      const v = operand.toLowerCase();
      return HAS_PLURALS[v] ?? v;
    }
    case 'in':
    case 'streams':
      return operand.toLowerCase();
    case 'sender':
    case 'dm':
    case 'dm-including':
      return operand
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
        .map((part) => {
          if (part.toLowerCase() === 'me' && lookups.myUserId !== undefined) return lookups.userById(lookups.myUserId)?.email ?? part;
          // A name instead of an email (the query was lost: it led to All messages).
          if (!part.includes('@') && !/^\d+$/.test(part)) return lookups.userByName?.(part)?.email ?? part;
          return part;
        })
        .join(',');
    default:
      return operand;
  }
}

// ---- search box text ----

interface Token {
  operator?: string | undefined;
  negated: boolean;
  operand: string;
  raw: string;
}

function readQuoted(text: string, start: number): { value: string; end: number } {
  // text[start] is the opening quote; backslash escapes `"` and `\`.
  let value = '';
  let i = start + 1;
  while (i < text.length && text[i] !== '"') {
    if (text[i] === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) i++;
    value += text[i];
    i++;
  }
  return { value, end: Math.min(i + 1, text.length) };
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i]!)) {
      i++;
      continue;
    }
    const start = i;
    if (text[i] === '"') {
      const { end } = readQuoted(text, i);
      // A quoted phrase stays quoted inside the search operand: the server searches the phrase.
      tokens.push({ negated: false, operand: '', raw: text.slice(start, end) });
      i = end;
      continue;
    }
    const op = /^(-?)([^\s:"]+):/.exec(text.slice(i));
    if (op) {
      i += op[0].length;
      let operand: string;
      if (text[i] === '"') {
        const q = readQuoted(text, i);
        operand = q.value;
        i = q.end;
      } else {
        const m = /^\S*/.exec(text.slice(i))!;
        operand = m[0];
        i += operand.length;
      }
      tokens.push({ operator: op[2], negated: op[1] === '-', operand, raw: text.slice(start, i) });
      continue;
    }
    const word = /^\S+/.exec(text.slice(i))!;
    tokens.push({ negated: false, operand: '', raw: word[0] });
    i += word[0].length;
  }
  return tokens;
}

/** Parses search box text. Unknown `word:word` tokens are search text, as in the reference. */
export function parseSearch(text: string, lookups: NarrowLookups): NarrowTerm[] {
  const terms: NarrowTerm[] = [];
  const words: string[] = [];
  for (const token of tokenize(text)) {
    const operator = token.operator === undefined ? undefined : canonicalOperator(token.operator);
    if (operator === undefined || !OPERATORS.has(operator)) {
      words.push(token.raw);
      continue;
    }
    if (operator === 'search') {
      if (token.operand) words.push(token.operand);
      continue;
    }
    const term: NarrowTerm = { operator, operand: canonicalOperand(operator, token.operand, lookups) };
    if (token.negated) term.negated = true;
    terms.push(term);
  }
  if (words.length > 0) terms.push({ operator: 'search', operand: words.join(' ') });
  return terms;
}

export function quoteOperand(operand: string): string {
  if (operand !== '' && !/[\s"\\]/.test(operand)) return operand;
  return `"${operand.replace(/[\\"]/g, (c) => '\\' + c)}"`;
}

function streamName(operand: string, lookups: NarrowLookups): string {
  return /^\d+$/.test(operand) ? (lookups.streamById(Number(operand))?.name ?? operand) : operand;
}

export function unparseSearch(terms: readonly NarrowTerm[], lookups: NarrowLookups): string {
  return terms
    .map((term) => {
      const operator = canonicalOperator(term.operator);
      if (operator === 'search') return term.operand;
      const operand = operator === 'stream' ? streamName(term.operand, lookups) : term.operand;
      return `${term.negated ? '-' : ''}${operator}:${quoteOperand(operand)}`;
    })
    .join(' ');
}

// ---- description ----

function userNames(operand: string, lookups: NarrowLookups): string {
  const names = operand.split(',').map((part) => {
    const p = part.trim();
    const user = /^\d+$/.test(p) ? lookups.userById(Number(p)) : lookups.userByEmail(p);
    return user?.full_name ?? p;
  });
  return new Intl.ListFormat('en', { type: 'conjunction' }).format(names);
}

const IS_TITLES: Record<string, string> = {
  starred: 'Starred messages',
  mentioned: 'Mentions',
  dm: 'Direct messages',
  unread: 'Unread messages',
  alerted: 'Alerted messages',
  resolved: 'Resolved topics',
  followed: 'Followed topics',
};
const HAS_TITLES: Record<string, string> = {
  link: 'Messages with links',
  image: 'Messages with images',
  attachment: 'Messages with attachments',
  reaction: 'Messages with reactions',
};

export function describeNarrow(terms: readonly NarrowTerm[], lookups: NarrowLookups): string {
  const shown = terms.filter((t) => !['near', 'with'].includes(canonicalOperator(t.operator)));
  const [a, b] = shown;
  const positive = shown.every((t) => !t.negated);
  if (!a || (shown.length === 1 && canonicalOperator(a.operator) === 'in')) return 'All messages';
  if (positive && shown.length <= 2) {
    const opA = canonicalOperator(a.operator);
    if (opA === 'stream' && (!b || canonicalOperator(b.operator) === 'topic')) {
      const name = `#${streamName(a.operand, lookups)}`;
      if (!b) return name;
      return `${name} > ${b.operand === '' ? (lookups.emptyTopicName ?? 'general chat') : b.operand}`;
    }
    if (!b) {
      if (opA === 'is' && IS_TITLES[a.operand]) return IS_TITLES[a.operand]!;
      if (opA === 'has' && HAS_TITLES[a.operand]) return HAS_TITLES[a.operand]!;
      if (opA === 'dm') return `Direct messages with ${userNames(a.operand, lookups)}`;
      if (opA === 'dm-including') return `Direct messages including ${userNames(a.operand, lookups)}`;
      if (opA === 'sender') return `Messages sent by ${userNames(a.operand, lookups)}`;
      if (opA === 'streams' && a.operand === 'public') return 'Messages in all public streams';
      if (opA === 'id') return `Message ${a.operand}`;
    }
  }
  return `Search results for ${unparseSearch(shown, lookups)}`;
}

const IS_EMPTY: Record<string, string> = {
  starred: 'No starred messages. Star a message from its actions menu (or press *) to keep it here.',
  mentioned: 'Nobody has mentioned you yet.',
  unread: 'No unread messages.',
  dm: 'No direct messages yet.',
};

/** What an empty message list says: a search found nothing; a view of yours is empty, and how it fills. */
export function emptyNarrowText(terms: readonly { operator: string; operand: unknown; negated?: boolean }[]): string {
  const shown = terms.filter((t) => !['near', 'with'].includes(canonicalOperator(t.operator)));
  const [only] = shown;
  const is = only && shown.length === 1 && !only.negated && canonicalOperator(only.operator) === 'is' ? IS_EMPTY[String(only.operand)] : undefined;
  if (is) return is;
  if (shown.some((t) => ['search', 'has'].includes(canonicalOperator(t.operator)) || t.negated)) return 'No messages match this search.';
  return 'No messages here yet.';
}

// ---- URL hash ----

const HASH_REPLACEMENTS: Record<string, string> = { '%': '.', '(': '.28', ')': '.29', '.': '.2E' };

/** The reference's hash escaping: URI encoding with '%' written as '.', so browsers that decode
 * location.hash on their own leave it alone. */
export function encodeHashComponent(s: string): string {
  return encodeURIComponent(s).replace(/[%().]/g, (c) => HASH_REPLACEMENTS[c]!);
}

/** Throws URIError on a malformed component. */
export function decodeHashComponent(s: string): string {
  return decodeURIComponent(s.replace(/\./g, '%'));
}

function nameSlug(fullName: string): string {
  return encodeHashComponent(fullName.replace(/[ "%/<>`\p{Cc}\p{Cf}\p{Co}\p{Cn}]+/gu, '-'));
}

function usersOf(operand: string, lookups: NarrowLookups): NarrowUser[] | undefined {
  const users: NarrowUser[] = [];
  for (const part of operand.split(',')) {
    const p = part.trim();
    const user = /^\d+$/.test(p) ? lookups.userById(Number(p)) : lookups.userByEmail(p);
    if (!user) return undefined;
    users.push(user);
  }
  return users;
}

function encodeHashOperand(operator: string, operand: string, lookups: NarrowLookups): string {
  if (operator === 'stream' && /^\d+$/.test(operand)) {
    const name = lookups.streamById(Number(operand))?.name ?? 'unknown';
    return encodeHashComponent(`${operand}-${name.replace(/ /g, '-')}`);
  }
  if (USER_OPERATORS.has(operator)) {
    const users = usersOf(operand, lookups);
    if (users && users.length > 0) {
      const ids = users.map((u) => u.user_id).sort((x, y) => x - y);
      const suffix = users.length === 1 ? nameSlug(users[0]!.full_name) : 'group';
      return `${ids.join(',')}-${suffix}`;
    }
  }
  return encodeHashComponent(operand);
}

export function narrowToHash(terms: readonly NarrowTerm[], lookups: NarrowLookups): string {
  if (terms.length === 0) return '#feed';
  let hash = '#narrow';
  for (const term of terms) {
    const operator = canonicalOperator(term.operator);
    const hashOperator = operator === 'stream' ? 'channel' : operator === 'streams' ? 'channels' : operator;
    hash += `/${term.negated ? '-' : ''}${encodeHashComponent(hashOperator)}/${encodeHashOperand(operator, term.operand, lookups)}`;
  }
  return hash;
}

function decodeHashOperand(operator: string, raw: string, lookups: NarrowLookups): string {
  if (USER_OPERATORS.has(operator)) {
    const m = /^([\d,]+)(-.*)?$/.exec(raw);
    if (m) {
      let ids = m[1]!.split(',').filter(Boolean).map(Number);
      // As the reference: "me" is left out of a group conversation's operand, kept when alone.
      if (ids.length > 1 && lookups.myUserId !== undefined) ids = ids.filter((id) => id !== lookups.myUserId);
      const users = ids.map((id) => lookups.userById(id));
      if (users.every((u) => u !== undefined)) return users.map((u) => u!.email).join(',');
      return ids.join(',');
    }
  }
  const operand = decodeHashComponent(raw);
  if (operator === 'stream') {
    const m = /^(\d+)(-.*)?$/.exec(operand);
    if (m && lookups.streamById(Number(m[1]))) return m[1]!;
    const byName = lookups.streamByName(operand);
    if (byName) return String(byName.stream_id);
    if (m) return m[1]!;
  }
  return canonicalOperand(operator, operand, lookups);
}

/** Terms of a `#narrow/...` hash; [] for the all-messages views (`#feed`, `#all_messages`, `#`),
 * undefined for other hashes and malformed narrows. */
export function hashToNarrow(hash: string, lookups: NarrowLookups): NarrowTerm[] | undefined {
  const h = hash.startsWith('#') ? hash.slice(1) : hash;
  if (h === '' || h === 'feed' || h === 'all_messages' || h === 'narrow' || h === 'narrow/') return [];
  if (!h.startsWith('narrow/')) return undefined;
  const parts = h.split('/');
  const terms: NarrowTerm[] = [];
  try {
    for (let i = 1; i < parts.length; i += 2) {
      let operator = decodeHashComponent(parts[i]!);
      if (operator === '') break;
      const raw = parts[i + 1];
      if (raw === undefined) return undefined;
      let negated = false;
      if (operator.startsWith('-')) {
        negated = true;
        operator = operator.slice(1);
      }
      operator = canonicalOperator(operator);
      if (raw === '' && operator !== 'topic') return undefined;
      const term: NarrowTerm = { operator, operand: decodeHashOperand(operator, raw, lookups) };
      if (negated) term.negated = true;
      terms.push(term);
    }
  } catch {
    return undefined;
  }
  return terms;
}

// ---- the API's form and helpers ----

function userIdsOf(operand: string, lookups: NarrowLookups): number[] | undefined {
  return usersOf(operand, lookups)?.map((u) => u.user_id);
}

/** The narrow for GET /messages and register: IDs where known (they survive email changes). */
export function toApiNarrow(terms: readonly NarrowTerm[], lookups: NarrowLookups): ApiNarrowTerm[] {
  const out: ApiNarrowTerm[] = [];
  for (const term of terms) {
    const operator = canonicalOperator(term.operator);
    if (operator === 'near' || operator === 'with' || operator === 'in') continue;
    let operand: ApiNarrowTerm['operand'] = term.operand;
    if ((operator === 'stream' || operator === 'id') && /^\d+$/.test(term.operand)) operand = Number(term.operand);
    else if (operator === 'dm') operand = userIdsOf(term.operand, lookups) ?? term.operand;
    else if (operator === 'sender' || operator === 'dm-including') {
      const ids = userIdsOf(term.operand, lookups);
      if (ids?.length === 1) operand = ids[0]!;
    }
    out.push(term.negated ? { operator, operand, negated: true } : { operator, operand });
  }
  return out;
}

export function nearMessageId(terms: readonly NarrowTerm[]): number | undefined {
  const term = terms.find((t) => ['near', 'with'].includes(canonicalOperator(t.operator)) && /^\d+$/.test(t.operand));
  return term ? Number(term.operand) : undefined;
}

export type Conversation = { type: 'stream'; streamId: number; topic?: string | undefined } | { type: 'private'; userIds: number[] };

/** The conversation a narrow shows, for composing into it (`c`) and for recipient bars. */
export function conversationOf(terms: readonly NarrowTerm[], lookups: NarrowLookups): Conversation | undefined {
  const positive = terms.filter((t) => !t.negated);
  const stream = positive.find((t) => canonicalOperator(t.operator) === 'stream');
  if (stream && /^\d+$/.test(stream.operand)) {
    const topic = positive.find((t) => canonicalOperator(t.operator) === 'topic');
    return topic ? { type: 'stream', streamId: Number(stream.operand), topic: topic.operand } : { type: 'stream', streamId: Number(stream.operand) };
  }
  const dm = positive.find((t) => canonicalOperator(t.operator) === 'dm');
  const ids = dm ? userIdsOf(dm.operand, lookups) : undefined;
  return ids ? { type: 'private', userIds: ids } : undefined;
}

export function streamNarrow(streamId: number, topic?: string): NarrowTerm[] {
  const terms: NarrowTerm[] = [{ operator: 'stream', operand: String(streamId) }];
  if (topic !== undefined) terms.push({ operator: 'topic', operand: topic });
  return terms;
}

function emailsOf(userIds: readonly number[], lookups: NarrowLookups): string {
  return userIds.map((id) => lookups.userById(id)?.email ?? String(id)).join(',');
}

/** Direct messages with these users (the caller's own ID is left out unless alone). */
export function dmNarrow(userIds: readonly number[], lookups: NarrowLookups): NarrowTerm[] {
  const others = userIds.length > 1 ? userIds.filter((id) => id !== lookups.myUserId) : [...userIds];
  return [{ operator: 'dm', operand: emailsOf([...new Set(others)].sort((x, y) => x - y), lookups) }];
}

export function senderNarrow(userId: number, lookups: NarrowLookups): NarrowTerm[] {
  return [{ operator: 'sender', operand: emailsOf([userId], lookups) }];
}

export interface NarrowMessage {
  id: number;
  type: 'stream' | 'private';
  sender_id: number;
  stream_id?: number | undefined;
  subject?: string | undefined;
  display_recipient?: string | readonly { id: number }[] | undefined;
  flags: readonly string[];
}

const RESOLVED_PREFIX = '\u2714 ';
const MENTION_FLAGS = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'wildcard_mentioned'];

function termMatches(m: NarrowMessage, operator: string, operand: string, lookups: NarrowLookups): boolean | undefined {
  const recipients = Array.isArray(m.display_recipient) ? (m.display_recipient as readonly { id: number }[]).map((r) => r.id) : [];
  switch (operator) {
    case 'stream': {
      const id = /^\d+$/.test(operand) ? Number(operand) : lookups.streamByName(operand)?.stream_id;
      return m.type === 'stream' && id !== undefined && m.stream_id === id;
    }
    case 'topic':
      return m.type === 'stream' && (m.subject ?? '').toLowerCase() === operand.toLowerCase();
    case 'sender': {
      const ids = userIdsOf(operand, lookups);
      return ids?.length === 1 && m.sender_id === ids[0];
    }
    case 'dm': {
      const ids = userIdsOf(operand, lookups);
      if (!ids || m.type !== 'private') return false;
      // Both sides without me, unless I am the only one (a conversation with myself).
      const norm = (list: readonly number[]) => {
        const set = new Set(list);
        if (set.size > 1 && lookups.myUserId !== undefined) set.delete(lookups.myUserId);
        return [...set].sort((x, y) => x - y).join(',');
      };
      return norm(ids) === norm(recipients);
    }
    case 'dm-including': {
      const ids = userIdsOf(operand, lookups);
      return m.type === 'private' && ids !== undefined && ids.every((id) => recipients.includes(id));
    }
    case 'is':
      switch (operand) {
        case 'dm':
          return m.type === 'private';
        case 'starred':
          return m.flags.includes('starred');
        case 'mentioned':
          return m.flags.some((f) => MENTION_FLAGS.includes(f));
        case 'alerted':
          return m.flags.includes('has_alert_word');
        case 'unread':
          return !m.flags.includes('read');
        case 'resolved':
          return m.type === 'stream' && (m.subject ?? '').startsWith(RESOLVED_PREFIX);
        default:
          return undefined;
      }
    case 'id':
      return m.id === Number(operand);
    case 'in':
    case 'near':
    case 'with':
      return true;
    default:
      return undefined;
  }
}

export function matchesNarrow(message: NarrowMessage, terms: readonly NarrowTerm[], lookups: NarrowLookups): boolean | undefined {
  let result: boolean | undefined = true;
  for (const term of terms) {
    const r = termMatches(message, canonicalOperator(term.operator), term.operand, lookups);
    if (r === undefined) result = undefined;
    else if (r === !!term.negated) return false;
  }
  return result;
}
