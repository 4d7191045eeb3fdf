// Keyboard shortcuts: one table, read by the keydown dispatcher and by the `?` overlay.
//
// Interface:
//   SHORTCUTS: readonly Shortcut[]   { keys, action, description, category, whileTyping? }
//   keyName(e: KeyLike) -> string    'c', 'Shift+U', 'Ctrl+K', '?', 'ArrowDown' (letters by
//     physical key on non-Latin layouts; Cmd counts as Ctrl; Shift is ignored on symbols)
//   actionFor(e: KeyLike, typing: boolean) -> ShortcutAction | undefined   pure
//   isTypingTarget(target) -> boolean   input, textarea, select, contenteditable
//   createKeydownHandler(handlers) -> (e: KeyboardEvent) => void   attach to `document` keydown.
//     A handler returns false to leave the key to the browser; otherwise the event's default is
//     prevented. Ignored: events already defaultPrevented (widgets such as the emoji picker and
//     menus handle their own keys and call preventDefault), keys inside a dialog (but `?`),
//     IME composition, keys while typing
//     except those with whileTyping (Esc, Ctrl+[, Ctrl+K, Alt+P), and Enter/Space on a link or
//     button (the browser activates those).
//   formatKey('ArrowDown') -> '↓'   for display

export type ShortcutAction =
  | 'compose'
  | 'compose_dm'
  | 'reply'
  | 'quote_reply'
  | 'select_next'
  | 'select_previous'
  | 'select_first'
  | 'select_last'
  | 'page_up'
  | 'page_down'
  | 'next_unread_topic'
  | 'search'
  | 'escape'
  | 'edit'
  | 'star'
  | 'react'
  | 'thumbs_up'
  | 'mark_unread'
  | 'view_image'
  | 'sender_profile'
  | 'all_messages'
  | 'inbox'
  | 'recent'
  | 'direct_messages'
  | 'toggle_preview'
  | 'show_shortcuts';

export interface Shortcut {
  keys: readonly string[];
  action: ShortcutAction;
  description: string;
  category: 'Navigation' | 'Composing' | 'Message actions';
  /** Also fires while focus is in a text field: all its keys, or those listed. */
  whileTyping?: boolean | readonly string[] | undefined;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['j', 'ArrowDown'], action: 'select_next', description: 'Select the next message', category: 'Navigation' },
  { keys: ['k', 'ArrowUp'], action: 'select_previous', description: 'Select the previous message', category: 'Navigation' },
  { keys: ['Home'], action: 'select_first', description: 'Select the first loaded message', category: 'Navigation' },
  { keys: ['End'], action: 'select_last', description: 'Select the last message', category: 'Navigation' },
  { keys: ['PageUp'], action: 'page_up', description: 'Scroll up a page', category: 'Navigation' },
  { keys: ['PageDown'], action: 'page_down', description: 'Scroll down a page', category: 'Navigation' },
  { keys: ['n'], action: 'next_unread_topic', description: 'Go to the next unread topic', category: 'Navigation' },
  { keys: ['Shift+I'], action: 'inbox', description: 'Go to the inbox', category: 'Navigation' },
  { keys: ['t'], action: 'recent', description: 'Go to recent conversations', category: 'Navigation' },
  { keys: ['a'], action: 'all_messages', description: 'Go to all messages', category: 'Navigation' },
  { keys: ['Shift+P'], action: 'direct_messages', description: 'Go to direct messages', category: 'Navigation' },
  { keys: ['/', 'Ctrl+K'], action: 'search', description: 'Search', category: 'Navigation', whileTyping: ['Ctrl+K'] },
  { keys: ['Escape', 'Ctrl+['], action: 'escape', description: 'Close, cancel or go back', category: 'Navigation', whileTyping: true },
  { keys: ['?'], action: 'show_shortcuts', description: 'Show keyboard shortcuts', category: 'Navigation' },
  { keys: ['c'], action: 'compose', description: 'New message to the current topic', category: 'Composing' },
  { keys: ['x'], action: 'compose_dm', description: 'New direct message', category: 'Composing' },
  { keys: ['r', 'Enter'], action: 'reply', description: 'Reply to the selected message', category: 'Composing' },
  { keys: ['>'], action: 'quote_reply', description: 'Quote and reply to the selected message', category: 'Composing' },
  { keys: ['Alt+P'], action: 'toggle_preview', description: 'Preview the message being written', category: 'Composing', whileTyping: true },
  { keys: ['e'], action: 'edit', description: 'Edit your selected message', category: 'Message actions' },
  { keys: ['*', 'Ctrl+S'], action: 'star', description: 'Star or unstar the selected message', category: 'Message actions' },
  { keys: [':'], action: 'react', description: 'Add a reaction to the selected message', category: 'Message actions' },
  { keys: ['+'], action: 'thumbs_up', description: 'Add or remove a thumbs up on the selected message', category: 'Message actions' },
  { keys: ['Shift+U'], action: 'mark_unread', description: 'Mark as unread from the selected message', category: 'Message actions' },
  { keys: ['v'], action: 'view_image', description: "View the selected message's images", category: 'Message actions' },
  { keys: ['u'], action: 'sender_profile', description: "Show the selected message's sender's profile", category: 'Message actions' },
];

export interface KeyLike {
  key: string;
  code?: string | undefined;
  shiftKey?: boolean | undefined;
  ctrlKey?: boolean | undefined;
  altKey?: boolean | undefined;
  metaKey?: boolean | undefined;
}

// Shift is part of typing these on many layouts, so it is not part of their name.
const SHIFTED_SYMBOLS = new Set(['*', '+', '=', '-', '/', ':', '<', '>', '?', '@', '[']);
const NAMED_KEYS = new Set(['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Backspace', 'Delete', 'End', 'Enter', 'Escape', 'Home', 'PageDown', 'PageUp', 'Tab']);

export function keyName(e: KeyLike): string {
  let key = e.key;
  if (!NAMED_KEYS.has(key) && !/^[\x20-\x7e]$/.test(key)) {
    // A non-Latin layout: use the physical key a QWERTY user would press.
    const m = /^Key([A-Z])$/.exec(e.code ?? '');
    if (!m) return key;
    key = m[1]!.toLowerCase();
  }
  if (/^[A-Z]$/.test(key)) key = key.toLowerCase();
  let name = key;
  if (e.shiftKey && !SHIFTED_SYMBOLS.has(key) && key !== ' ') name = name.length === 1 ? `Shift+${name.toUpperCase()}` : `Shift+${name}`;
  if (e.altKey) name = `Alt+${name.length === 1 ? name.toUpperCase() : name}`;
  if (e.ctrlKey || e.metaKey) name = `Ctrl+${name.length === 1 ? name.toUpperCase() : name}`;
  return name;
}

const BY_KEY = new Map<string, { action: ShortcutAction; whileTyping: boolean }>();
for (const s of SHORTCUTS) {
  for (const k of s.keys) {
    const whileTyping = s.whileTyping === true || (Array.isArray(s.whileTyping) && s.whileTyping.includes(k));
    BY_KEY.set(k, { action: s.action, whileTyping });
  }
}

export function actionFor(e: KeyLike, typing: boolean): ShortcutAction | undefined {
  const entry = BY_KEY.get(keyName(e));
  if (!entry || (typing && !entry.whileTyping)) return undefined;
  return entry.action;
}

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
  return false;
}

function isControl(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.closest('a[href], button, summary, [role="button"], [role="menuitem"], [role="link"]') !== null;
}

function inDialog(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('dialog[open], [role="dialog"], [role="alertdialog"]') !== null;
}

export type ShortcutHandlers = Partial<Record<ShortcutAction, (e: KeyboardEvent) => boolean | void>>;

export function createKeydownHandler(handlers: ShortcutHandlers): (e: KeyboardEvent) => void {
  return (e) => {
    if (e.defaultPrevented || e.isComposing) return;
    const action = actionFor(e, isTypingTarget(e.target));
    if (!action) return;
    // A dialog handles its own keys; `?` still toggles the shortcuts overlay.
    if (action !== 'show_shortcuts' && inDialog(e.target)) return;
    if ((e.key === 'Enter' || e.key === ' ') && isControl(e.target)) return;
    const handler = handlers[action];
    if (!handler) return;
    if (handler(e) !== false) e.preventDefault();
  };
}

const KEY_LABELS: Record<string, string> = {
  ArrowDown: '↓',
  ArrowUp: '↑',
  ArrowLeft: '←',
  ArrowRight: '→',
  Escape: 'Esc',
  PageUp: 'Page Up',
  PageDown: 'Page Down',
};

export function formatKey(key: string): string {
  // A `+` joins keys, except the last one, which is the plus key itself ('+', 'Ctrl++').
  return key
    .split(/\+(?!$)/)
    .map((part) => KEY_LABELS[part] ?? part)
    .join(' + ');
}
