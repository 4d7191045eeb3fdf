// What the screen shows, apart from server state: the narrow, the selected message, compose,
// open menus and drawers, the theme. Server state lives in store/.
import { signal } from '@preact/signals';
import type { Narrow } from '../store/types.ts';

export type View = { kind: 'narrow'; narrow: Narrow } | { kind: 'drafts' } | { kind: 'scheduled' } | { kind: 'inbox' } | { kind: 'recent' };

export const view = signal<View>({ kind: 'narrow', narrow: [] });
export const selectedId = signal<number | null>(null);
/** A message just sent from the view that shows it: selected once it is in the list (its event may come after the send's answer). */
export const selectWhenShown = signal<number | null>(null);

export type ComposeState =
  | { type: 'stream'; streamId: number | null; topic: string; content: string; draftId?: number }
  | { type: 'private'; to: number[]; content: string; draftId?: number };
export const compose = signal<ComposeState | null>(null);
/** Set to move focus into compose's message box on its next render. */
export const composeFocus = signal<'message' | 'topic' | 'to' | null>(null);

export const drawer = signal<'left' | 'right' | null>(null);
export const editingId = signal<number | null>(null);
/** The message whose emoji picker is open (the `:` key opens it for the selected one). */
export const reactingId = signal<number | null>(null);
/** Bumped to toggle compose's preview from the keyboard. */
export const previewToggle = signal(0);
export const dialog = signal<null | { kind: 'history' | 'move' | 'delete' | 'shortcuts'; messageId?: number } | { kind: 'user'; userId: number }>(null);
export const toast = signal<{ text: string; error?: boolean } | null>(null);

let toastTimer: ReturnType<typeof setTimeout> | undefined;
export function showToast(text: string, error = false): void {
  toast.value = { text, error };
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => (toast.value = null), 5000);
}

/**
 * Going elsewhere ends a notice about what was done before ("Scheduled for …"): it covered the
 * top of the view just opened. An error stays its time, to be read.
 */
export function dismissNotice(): void {
  if (!toast.value || toast.value.error) return;
  clearTimeout(toastTimer);
  toast.value = null;
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

// --- theme ------------------------------------------------------------------------------

export type Theme = 'light' | 'dark';
const THEME_KEY = 'parley-theme';
const systemDark = (): boolean => typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;

function storedTheme(): Theme | null {
  try {
    const t = localStorage.getItem(THEME_KEY);
    return t === 'light' || t === 'dark' ? t : null;
  } catch {
    return null;
  }
}

export const theme = signal<Theme>(storedTheme() ?? (systemDark() ? 'dark' : 'light'));

export function applyTheme(): void {
  document.documentElement.dataset.theme = theme.value;
}

export function setTheme(t: Theme): void {
  theme.value = t;
  try {
    localStorage.setItem(THEME_KEY, t);
  } catch {
    /* private mode: the choice lasts for this page */
  }
  applyTheme();
}

/** Follows the system while the person has not chosen. */
export function followSystemTheme(): void {
  if (typeof matchMedia !== 'function') return;
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', (e) => {
    if (storedTheme() === null) {
      theme.value = e.matches ? 'dark' : 'light';
      applyTheme();
    }
  });
}

// --- local preferences --------------------------------------------------------------------

function pref(key: string, fallback: boolean) {
  let initial = fallback;
  try {
    const v = localStorage.getItem(key);
    if (v !== null) initial = v === '1';
  } catch {
    /* keep the default */
  }
  const s = signal(initial);
  return {
    signal: s,
    set(v: boolean) {
      s.value = v;
      try {
        localStorage.setItem(key, v ? '1' : '0');
      } catch {
        /* keep it for this page */
      }
    },
  };
}

/** Enter makes a new line and Ctrl+Enter sends, instead of the other way round. */
export const enterNewlinePref = pref('parley-enter-newline', false);

/** Whether a key in a message box sends it (compose) or saves it (an edit), by the "Enter sends" choice; Ctrl+Enter always does. */
export function sendsMessage(e: KeyboardEvent): boolean {
  if (e.key !== 'Enter' || e.isComposing) return false;
  if (e.ctrlKey || e.metaKey) return true;
  return !enterNewlinePref.signal.value && !e.shiftKey && !e.altKey;
}
