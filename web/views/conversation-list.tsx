// What the Inbox and Recent conversations views share: keyboard movement between rows, the
// mention marker, and the filter box.
import type { JSX } from 'preact';
import { isTypingTarget } from '../lib/keyboard.ts';
import './conversations.css';

const NAV = '[data-nav]';

function navItems(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(NAV)];
}

/** Focuses the first row, unless the person is typing somewhere. */
export function focusFirstRow(root: HTMLElement | null): void {
  if (!root) return;
  const active = document.activeElement;
  if (active && active !== document.body && isTypingTarget(active)) return;
  navItems(root)[0]?.focus();
}

/**
 * Up/Down (and j/k outside text fields) move between rows, Home/End to the first and last;
 * Left/Right between a row's controls. Enter is the focused link's or button's own.
 */
export function onListKeyDown(e: JSX.TargetedKeyboardEvent<HTMLElement>, root: HTMLElement | null): void {
  if (!root || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  const target = e.target as HTMLElement;
  const typing = isTypingTarget(target);
  const items = navItems(root);
  const row = target.closest<HTMLElement>('[data-row]');
  const at = row ? items.findIndex((el) => row.contains(el)) : -1;
  let next: HTMLElement | undefined;
  switch (e.key) {
    case 'ArrowDown':
    case 'j':
      if (e.key === 'j' && typing) return;
      next = items[at + 1] ?? (at === -1 ? items[0] : undefined);
      break;
    case 'ArrowUp':
    case 'k':
      if (typing) return;
      next = at > 0 ? items[at - 1] : (root.querySelector<HTMLElement>('[data-filter]') ?? undefined);
      break;
    case 'Home':
    case 'End':
      if (typing) return;
      next = e.key === 'Home' ? items[0] : items[items.length - 1];
      break;
    case 'ArrowLeft':
    case 'ArrowRight': {
      if (typing || !row) return;
      const controls = [...row.querySelectorAll<HTMLElement>('a, button')];
      const i = controls.indexOf(target);
      next = controls[i + (e.key === 'ArrowRight' ? 1 : -1)];
      break;
    }
    default:
      return;
  }
  e.preventDefault();
  if (!next) return;
  next.focus();
  next.scrollIntoView({ block: 'nearest' });
}

export function MentionMark({ n }: { n: number }) {
  if (!n) return null;
  return (
    <span class="mention-mark" title={`${n} mention${n === 1 ? '' : 's'}`} aria-label={n === 1 ? 'mentions you' : `${n} mentions`}>
      @
    </span>
  );
}

export function FilterBox({ value, onInput, label }: { value: string; onInput: (v: string) => void; label: string }) {
  return (
    <input
      type="search"
      class="conv-filter"
      data-filter
      placeholder={label}
      aria-label={label}
      value={value}
      onInput={(e) => onInput(e.currentTarget.value)}
    />
  );
}
