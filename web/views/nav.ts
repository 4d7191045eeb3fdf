// Moving between narrows: the URL hash is the source, so back/forward and shared links work.
// The app keeps narrows in the API's form (stream and user IDs); lib/narrow.ts turns them into
// hashes, search box text and headings and back.
import { store, client } from './context.ts';
import { compose, selectedId, selectWhenShown, view, drawer, dismissNotice } from './state.ts';
import { decodeHashComponent, describeNarrow, hashToNarrow, narrowToHash, nearMessageId, parseSearch, toApiNarrow, unparseSearch, userByName, type NarrowLookups, type NarrowTerm } from '../lib/narrow.ts';
import { operandIds } from '../store/match.ts';
import type { Narrow, Term } from '../store/types.ts';
import type { TopicMove } from '../store/index.ts';
import { composeTarget } from './Compose.tsx';
import { readSettingsHash } from './settings/route.ts';

export const lookups: NarrowLookups = {
  streamById(id) {
    const s = store.streams.subs.value.get(id) ?? store.streams.streams.value.get(id);
    return s && { stream_id: s.stream_id, name: s.name };
  },
  streamByName(name) {
    const id = store.streams.byName(name);
    return id === undefined ? undefined : this.streamById(id);
  },
  userById: (id) => store.users.get(id),
  userByEmail: (email) => store.users.byEmail(email),
  userByName: (name) => userByName(store.users.active.value, name),
  get myUserId() {
    return store.me;
  },
  get emptyTopicName() {
    return String(store.settings.realm.value.empty_topic_display_name ?? 'general chat');
  },
};

const email = (id: number) => store.users.get(id)?.email ?? String(id);

/** The app's narrow as lib/narrow.ts's terms (users by email, as the reference's hashes). */
export function toTerms(narrow: Narrow): NarrowTerm[] {
  return narrow.map((t: Term) => {
    let operand: string;
    if (t.operator === 'dm' || t.operator === 'sender' || t.operator === 'dm-including') operand = operandIds(t.operand).map(email).join(',');
    else operand = String(t.operand);
    return t.negated ? { operator: t.operator, operand, negated: true } : { operator: t.operator, operand };
  });
}

export function fromTerms(terms: readonly NarrowTerm[]): Narrow {
  return toApiNarrow(terms, lookups) as Narrow;
}

export function hashFor(narrow: Narrow): string {
  return narrowToHash(toTerms(narrow), lookups);
}

export function go(narrow: Narrow): void {
  const hash = hashFor(narrow);
  drawer.value = null;
  if (location.hash === hash) {
    readHash();
    return;
  }
  location.hash = hash;
}

export function goDrafts(): void {
  drawer.value = null;
  location.hash = '#drafts';
}

export function searchNarrow(text: string): Narrow {
  return fromTerms(parseSearch(text, lookups));
}

export function searchText(narrow: Narrow): string {
  return unparseSearch(toTerms(narrow), lookups);
}

/** The views that are not narrows, by their hash. */
const VIEW_HASHES: Record<string, 'drafts' | 'scheduled' | 'inbox' | 'recent'> = {
  '#drafts': 'drafts',
  '#scheduled': 'scheduled',
  '#inbox': 'inbox',
  '#recent': 'recent',
  '#recent_topics': 'recent',
};

/**
 * The person's home view (`web_home_view`, called `default_view` at our feature level), shown
 * when the URL has no hash and by Escape.
 */
export function homeHash(): string {
  const s = store.settings.user.value;
  const home = s.web_home_view ?? s.default_view;
  return home === 'inbox' ? '#inbox' : home === 'recent_topics' ? '#recent' : '#feed';
}

export function goHome(): void {
  drawer.value = null;
  location.hash = homeHash();
}

function resolvedHash(): string {
  const h = location.hash;
  return h === '' || h === '#' ? homeHash() : h;
}

/** Applies the URL hash to the view (on start, on hashchange). */
export function readHash(): void {
  const h = resolvedHash();
  drawer.value = null;
  dismissNotice();
  // Settings open over the narrow, which stays as it was.
  if (readSettingsHash(h)) return;
  const other = VIEW_HASHES[h];
  if (other) {
    view.value = { kind: other };
    // Inbox, Recent conversations, drafts and scheduled messages are no conversation: an empty compose box closes
    // (on a phone it took a third of the screen), one with words in it stays.
    if (compose.value && !compose.value.content.trim()) compose.value = null;
    return;
  }
  const terms = hashToNarrow(h, lookups) ?? [];
  const narrow = fromTerms(terms);
  view.value = { kind: 'narrow', narrow };
  selectedId.value = nearMessageId(terms) ?? null;
  selectWhenShown.value = null;
  // An open, empty compose box follows the narrow to its conversation.
  const c = compose.value;
  if (c && !c.content.trim()) compose.value = { ...composeTarget(), draftId: undefined };
  const stream = narrow.find((t) => t.operator === 'stream');
  if (stream && typeof stream.operand === 'number' && unknownStreamName(narrow) === null) void client.loadTopics(stream.operand).catch(() => undefined);
}

/**
 * A topic moved on (as a whole, or from a message on) takes along what was going on in it here,
 * as in the reference web app: a message being written to it is addressed to the new place (it
 * would have gone to the old one, left behind), and the view of it goes there with the same
 * message selected, when that message moved (all of the topic did, or the selected one).
 */
export function followTopicMove(move: TopicMove): void {
  const sameTopic = (stream: unknown, topic: unknown) => Number(stream) === move.fromStream && String(topic).toLowerCase() === move.fromTopic.toLowerCase();
  const c = compose.value;
  if (c?.type === 'stream' && sameTopic(c.streamId, c.topic)) compose.value = { ...c, streamId: move.toStream, topic: move.toTopic };
  const v = view.value;
  if (v.kind !== 'narrow' || v.narrow.length !== 2) return;
  const stream = v.narrow.find((t) => t.operator === 'stream' && !t.negated);
  const topic = v.narrow.find((t) => t.operator === 'topic' && !t.negated);
  if (!stream || !topic || !sameTopic(stream.operand, topic.operand)) return;
  const selected = selectedId.value;
  if (!move.whole && (selected === null || !move.messageIds.includes(selected))) return;
  const narrow: Narrow = [
    { operator: 'stream', operand: move.toStream },
    { operator: 'topic', operand: move.toTopic },
  ];
  // In place of the old topic's entry: going back to it would show an empty topic.
  location.replace(hashFor(selected === null ? narrow : [...narrow, { operator: 'near', operand: selected }]));
}

/** The narrow the URL asks for (null for other views), to fetch its messages while the app renders. */
export function narrowFromHash(): Narrow | null {
  const h = resolvedHash();
  if (VIEW_HASHES[h]) return null;
  const narrow = fromTerms(hashToNarrow(h, lookups) ?? []);
  return unknownStreamName(narrow) === null ? narrow : null;
}

export function currentNarrow(): Narrow {
  const v = view.value;
  return v.kind === 'narrow' ? v.narrow : [];
}

export function narrowTitle(narrow: Narrow): string {
  return describeNarrow(toTerms(narrow), lookups);
}

/**
 * The name to say for a stream the narrow asks for that the app does not know (a link to a
 * stream since archived or made private, or never there), or null when it knows the stream.
 * The register's streams are every stream the person can see, so nothing needs fetching.
 */
export function unknownStreamName(narrow: Narrow): string | null {
  const t = narrow.find((x) => x.operator === 'stream' && !x.negated);
  if (!t) return null;
  // A name is turned into an ID when the app knows it.
  if (typeof t.operand !== 'number') return String(t.operand);
  if (store.streams.subs.value.has(t.operand) || store.streams.streams.value.has(t.operand)) return null;
  // The name a link carries after the ID (`99999-gone`), else the ID.
  const slug = new RegExp(`/(?:channel|stream)/${t.operand}-([^/]+)`).exec(location.hash)?.[1];
  return slug ? decodeHashComponent(slug) : String(t.operand);
}
