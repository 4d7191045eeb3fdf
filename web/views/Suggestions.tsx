// Suggestions under a compose field (@-mentions, #streams and topics, :emoji:, DM recipients,
// topics) and the search box, from lib/typeahead.ts over the store. The field keeps focus; arrows
// move, Enter or Tab picks, Escape closes (aria-activedescendant tells screen readers which one is
// active). The search box's list starts with none active, so Enter searches what was typed.
import { useLayoutEffect, useRef } from 'preact/hooks';
import { signal } from '@preact/signals';
import { store } from './context.ts';
import { activeToken, applySuggestion, matchTopics, matchUsers, searchSuggestions, suggest, type Suggestion, type TypeaheadData } from '../lib/typeahead.ts';
import { lookups } from './nav.ts';
import { emojiNames, loadUnicodeEmoji } from '../lib/emoji-data.ts';

export interface Choice {
  label: string;
  detail?: string;
  /** The person a recipient suggestion adds. */
  userId?: number;
  /** A search suggestion that is a whole term: picking it searches. */
  complete?: boolean;
  /** The field's new text and cursor. */
  apply(): { text: string; cursor: number };
}

export interface SuggestState {
  field: 'message' | 'edit' | 'to' | 'topic' | 'search';
  items: Choice[];
  /** -1: none yet. */
  active: number;
}

export const suggestions = signal<SuggestState | null>(null);

const emoji = signal<string[]>([]);
let emojiRequested = false;
/** An emoji name typed before the names had loaded: suggested when they arrive if the field still reads the same. */
let emojiWaiting: { text: string; cursor: number; streamId: number | null; field: 'message' | 'edit' } | null = null;
function emojiData(): string[] {
  if (!emojiRequested) {
    emojiRequested = true;
    loadUnicodeEmoji().then(
      (entries) => {
        emoji.value = emojiNames(entries);
        const w = emojiWaiting;
        emojiWaiting = null;
        const el = document.activeElement;
        if (w && el instanceof HTMLTextAreaElement && el.value === w.text && el.selectionStart === w.cursor) suggestions.value = messageSuggestions(w.text, w.cursor, w.streamId, w.field);
      },
      () => (emojiRequested = false),
    );
  }
  return emoji.value;
}

function data(streamId: number | null): TypeaheadData {
  const topics = new Map<number | undefined, string[]>();
  for (const [id, list] of store.streams.topics.value) topics.set(id, list.map((t) => t.name));
  return {
    users: store.users.active.value.filter((u) => !u.is_bot || u.user_id === store.me),
    groups: store.settings.groups.value,
    streams: store.streams.sorted.value,
    topics,
    wildcards: streamId !== null ? ['all', 'everyone', 'channel', 'topic'] : ['all', 'everyone'],
    recentUserIds: store.recentDms.value.flatMap((c) => c.userIds),
  };
}

/** What tells a mention's suggestions apart: a person's email; a group, said to be one, with its description. */
function mentionDetail(s: Suggestion): string | undefined {
  if (s.kind === 'user') return s.user.email;
  if (s.kind === 'group') return s.group.description ? `User group · ${s.group.description}` : 'User group';
  return undefined;
}

/** @-mentions, #streams and topics, :emoji: for the word at the cursor of a message being written (`field`: compose's, or an edit's). */
export function messageSuggestions(text: string, cursor: number, streamId: number | null, field: 'message' | 'edit' = 'message'): SuggestState | null {
  const token = activeToken(text, cursor);
  if (!token) return null;
  const d = data(streamId);
  if (token.kind === 'emoji') {
    d.emoji = emojiData();
    emojiWaiting = d.emoji.length === 0 ? { text, cursor, streamId, field } : null;
  }
  const found = suggest(token, d, 8);
  if (found.length === 0) return null;
  return {
    field,
    active: 0,
    items: found.map((s) => ({
      label: s.label,
      detail: mentionDetail(s),
      apply: () => applySuggestion(text, token, s),
    })),
  };
}

/** The "To" field: people matching what is typed, other than those already chosen. */
export function recipientSuggestions(query: string, chosen: number[]): SuggestState | null {
  if (!query.trim()) return null;
  const users = matchUsers(query.trim(), store.users.active.value, { excludeIds: chosen, recentUserIds: store.recentDms.value.flatMap((c) => c.userIds), limit: 8 });
  if (users.length === 0) return null;
  return {
    field: 'to',
    active: 0,
    items: users.map((u) => ({ label: u.full_name, detail: u.email, userId: u.user_id, apply: () => ({ text: '', cursor: 0 }) })),
  };
}

export function topicSuggestions(text: string, streamId: number | null): SuggestState | null {
  if (streamId === null) return null;
  const topics = (store.streams.topics.value.get(streamId) ?? []).map((t) => t.name);
  const found = matchTopics(text, topics, 8).filter((t) => t !== text);
  if (found.length === 0) return null;
  return { field: 'topic', active: 0, items: found.map((t) => ({ label: t, apply: () => ({ text: t, cursor: t.length }) })) };
}

/** The search box: for the word being typed, operators, terms, streams and people. */
export function searchBoxSuggestions(text: string): SuggestState | null {
  const topics = store.streams.topics.value;
  const found = searchSuggestions(text, {
    streams: store.streams.sorted.value,
    users: store.users.active.value,
    topics: (id) => (topics.get(id) ?? []).map((t) => t.name),
    recentUserIds: store.recentDms.value.flatMap((c) => c.userIds),
    lookups,
  });
  if (found.length === 0) return null;
  return { field: 'search', active: -1, items: found.map((f) => ({ label: f.label, detail: f.detail, complete: f.complete, apply: () => ({ text: f.text, cursor: f.text.length }) })) };
}

/** Handles a key in a field with suggestions open; true when it was theirs. */
export function suggestionKey(e: KeyboardEvent, field: SuggestState['field'], pick: (c: Choice) => void): boolean {
  const s = suggestions.value;
  if (!s || s.field !== field) return false;
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    e.preventDefault();
    const n = s.items.length;
    // From none active, down is the first and up the last.
    const from = s.active < 0 && e.key === 'ArrowUp' ? 0 : s.active;
    suggestions.value = { ...s, active: (from + (e.key === 'ArrowDown' ? 1 : n - 1)) % n };
    return true;
  }
  if (e.key === 'Enter' || e.key === 'Tab') {
    const c = s.items[s.active];
    if (!c) return false;
    e.preventDefault();
    pick(c);
    return true;
  }
  if (e.key === 'Escape') {
    e.preventDefault();
    e.stopPropagation();
    suggestions.value = null;
    return true;
  }
  return false;
}

export function SuggestionList({ field, pick }: { field: SuggestState['field']; pick: (c: Choice) => void }) {
  const s = suggestions.value;
  const ref = useRef<HTMLUListElement>(null);
  // A list shorter than its options (an edit's, in little room) keeps the active one in sight.
  useLayoutEffect(() => {
    if (s?.field === field) ref.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [s?.active, s?.field]);
  if (!s || s.field !== field) return null;
  return (
    <ul ref={ref} class="suggestions" role="listbox" id={`suggest-${field}`} aria-label="Suggestions">
      {s.items.map((c, i) => (
        <li
          key={c.label + i}
          id={`suggest-${field}-${i}`}
          role="option"
          aria-selected={i === s.active}
          class={i === s.active ? 'active' : ''}
          // mousedown, not click: the field keeps focus.
          onMouseDown={(e) => {
            e.preventDefault();
            pick(c);
          }}
        >
          <span>{c.label}</span>
          {c.detail && <span class="muted-text"> {c.detail}</span>}
        </li>
      ))}
    </ul>
  );
}

/** ARIA for the field that owns the list. */
export function comboProps(field: SuggestState['field']): Record<string, string | boolean | undefined> {
  const s = suggestions.value;
  const open = s?.field === field;
  return {
    // No aria-expanded: the fields stay textboxes (a textarea cannot be a combobox), which do not take it.
    'aria-autocomplete': 'list',
    'aria-controls': open ? `suggest-${field}` : undefined,
    'aria-activedescendant': open && s!.active >= 0 ? `suggest-${field}-${s!.active}` : undefined,
  };
}
