// Moving between narrows: the URL hash is the source, so back/forward and shared links work.
import { store, client } from './context.ts';
import { compose, selectedId, view, drawer } from './state.ts';
import { hashToNarrow, narrowToHash, type Names } from '../lib/interim.ts';
import type { Narrow } from '../store/types.ts';
import { composeTarget } from './Compose.tsx';

export const names: Names = {
  stream: (id) => store.streams.name(id),
  streamId: (name) => store.streams.byName(name),
  user: (id) => store.users.name(id),
};

export function hashFor(narrow: Narrow): string {
  return narrowToHash(narrow, names);
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

/** Applies the URL hash to the view (on start, on hashchange). */
export function readHash(): void {
  const h = location.hash;
  drawer.value = null;
  if (h === '#drafts') {
    view.value = { kind: 'drafts' };
    return;
  }
  const narrow = hashToNarrow(h) ?? [];
  const near = narrow.find((t) => t.operator === 'near' || t.operator === 'with');
  const clean = narrow.filter((t) => t.operator !== 'near' && t.operator !== 'with');
  view.value = { kind: 'narrow', narrow: clean };
  selectedId.value = near ? Number(near.operand) : null;
  // An open, empty compose box follows the narrow to its conversation.
  const c = compose.value;
  if (c && !c.content.trim()) compose.value = { ...composeTarget(), draftId: undefined };
  const stream = clean.find((t) => t.operator === 'stream');
  if (stream) void client.loadTopics(Number(stream.operand)).catch(() => undefined);
}

export function currentNarrow(): Narrow {
  const v = view.value;
  return v.kind === 'narrow' ? v.narrow : [];
}

export function narrowTitle(narrow: Narrow): string {
  if (narrow.length === 0) return 'All messages';
  const stream = narrow.find((t) => t.operator === 'stream');
  const topic = narrow.find((t) => t.operator === 'topic');
  const dm = narrow.find((t) => t.operator === 'dm');
  const is = narrow.find((t) => t.operator === 'is');
  if (stream && narrow.length <= 2) return `#${names.stream(Number(stream.operand))}${topic ? ` > ${String(topic.operand)}` : ''}`;
  if (dm && narrow.length === 1) return (Array.isArray(dm.operand) ? dm.operand : [Number(dm.operand)]).map((id) => names.user(Number(id))).join(', ');
  if (is?.operand === 'mentioned' && narrow.length === 1) return 'Mentions';
  if (is?.operand === 'starred' && narrow.length === 1) return 'Starred messages';
  if (is?.operand === 'dm' && narrow.length === 1) return 'Direct messages';
  const sender = narrow.find((t) => t.operator === 'sender');
  if (sender && narrow.length === 1) return `Messages from ${names.user(Number(sender.operand))}`;
  return 'Search results';
}
