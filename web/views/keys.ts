// Keyboard shortcuts (until the shared key map lands): keys act on the selected message.
import { client, store } from './context.ts';
import { compose, dialog, drawer, editingId, selectedId, view } from './state.ts';
import { composeTarget, openCompose } from './Compose.tsx';
import { conversationNarrow, openComposeFor } from './Message.tsx';
import { go, currentNarrow } from './nav.ts';
import { lowerBound } from './MessageView.tsx';
import { topicKey } from '../store/unread.ts';
import { canEdit } from '../store/permissions.ts';

export const SHORTCUTS: [string, string][] = [
  ['c', 'Compose to the current topic'],
  ['x', 'New direct message'],
  ['r / Enter', 'Reply to the selected message'],
  ['j / ↓', 'Next message'],
  ['k / ↑', 'Previous message'],
  ['End', 'Last message'],
  ['n', 'Next unread topic'],
  ['e', 'Edit your selected message'],
  ['s', 'Narrow to the selected message’s topic'],
  ['/', 'Search'],
  ['Esc', 'Close compose, menus and dialogs; back to all messages'],
  ['?', 'This list'],
];

function currentList() {
  return client.current;
}

function move(delta: number) {
  const list = currentList();
  if (!list || list.ids.length === 0) return;
  const sel = selectedId.value;
  const i = sel === null ? list.ids.length - 1 : lowerBound(list.ids, sel);
  const next = list.ids[Math.max(0, Math.min(list.ids.length - 1, i + delta))];
  if (next !== undefined) selectedId.value = next;
}

function nextUnreadTopic() {
  const counts = store.unread.counts.value;
  const narrow = currentNarrow();
  const stream = Number(narrow.find((t) => t.operator === 'stream')?.operand ?? NaN);
  const topic = narrow.find((t) => t.operator === 'topic')?.operand;
  const here = topic === undefined ? '' : topicKey(stream, String(topic));
  const ids = store.unread.unreadIds((e) => e.kind === 'stream' && counts.byStream.has(e.streamId) && topicKey(e.streamId, e.topic) !== here && !store.streams.muteRules.value.streamMuted(e.streamId));
  const first = ids[0];
  if (first === undefined) return;
  const e = store.unread.entries.get(first);
  if (e?.kind === 'stream')
    go([
      { operator: 'stream', operand: e.streamId },
      { operator: 'topic', operand: e.topic },
    ]);
}

export function installKeys(): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target as HTMLElement;
    const typing = t.closest('input, textarea, select, [contenteditable=true]') !== null;
    if (e.key === 'Escape') {
      if (dialog.value) dialog.value = null;
      else if (drawer.value) drawer.value = null;
      else if (editingId.value !== null) editingId.value = null;
      else if (compose.value) compose.value = null;
      else if (typing) t.blur();
      else if (view.value.kind !== 'narrow' || currentNarrow().length) go([]);
      return;
    }
    if (typing || dialog.value || t.closest('[role=menu], [role=dialog]')) return;
    const sel = selectedId.value === null ? undefined : store.messages.byId.get(selectedId.value);
    const act = (fn: () => void) => {
      e.preventDefault();
      fn();
    };
    switch (e.key) {
      case 'j':
      case 'ArrowDown':
        if (t.closest('button, a') && e.key === 'ArrowDown') return;
        return act(() => move(1));
      case 'k':
      case 'ArrowUp':
        if (t.closest('button, a') && e.key === 'ArrowUp') return;
        return act(() => move(-1));
      case 'End':
        return act(() => move(Infinity));
      case 'c':
        return act(() => openCompose(composeTarget()));
      case 'x':
        return act(() => openCompose({ type: 'private', to: [], content: '' }, 'to'));
      case 'r':
        return act(() => (sel ? openComposeFor(sel) : openCompose(composeTarget())));
      case 'Enter':
        if (t.closest('button, a, summary')) return;
        return act(() => (sel ? openComposeFor(sel) : openCompose(composeTarget())));
      case 'n':
        return act(nextUnreadTopic);
      case 'e':
        if (sel && canEdit(sel, { me: store.me, role: store.users.get(store.me)?.role ?? 400, realm: store.settings.realm.value, now: Date.now() / 1000 })) act(() => (editingId.value = sel.id));
        return;
      case 's':
        if (sel) act(() => go(conversationNarrow(sel)));
        return;
      case '/':
        return act(() => document.getElementById('search')?.focus());
      case '?':
        return act(() => (dialog.value = { kind: 'shortcuts' }));
    }
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}
