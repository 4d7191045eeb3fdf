// A menu of actions (role=menu): arrow keys move, Escape closes and gives focus back.
import { useLayoutEffect, useRef } from 'preact/hooks';

export interface MenuItem {
  label: string;
  action?: () => unknown;
  disabled?: boolean;
}

export function Menu({ label, items, onClose }: { label: string; items: (MenuItem | null)[]; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const opener = useRef<Element | null>(typeof document !== 'undefined' ? document.activeElement : null);
  // In the task that shows the menu (a layout effect): a key pressed as soon as it shows acts on it.
  useLayoutEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role=menuitem]:not([aria-disabled=true])')?.focus();
    const away = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node) && !(opener.current as Element | null)?.contains(e.target as Node)) onClose();
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, []);

  function close(refocus = true) {
    onClose();
    if (refocus) (opener.current as HTMLElement | null)?.focus();
  }

  function onKeyDown(e: KeyboardEvent) {
    const all = [...(ref.current?.querySelectorAll<HTMLElement>('[role=menuitem]:not([aria-disabled=true])') ?? [])];
    const i = all.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      all[(i + (e.key === 'ArrowDown' ? 1 : all.length - 1)) % all.length]?.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close();
    } else if (e.key === 'Tab') close(false);
  }

  return (
    <div class="menu" role="menu" aria-label={label} ref={ref} onKeyDown={onKeyDown}>
      {items
        .filter((x): x is MenuItem => x !== null)
        .map((item) => (
          <button
            type="button"
            role="menuitem"
            key={item.label}
            aria-disabled={item.disabled || undefined}
            tabIndex={-1}
            class={item.disabled ? 'menu-caption' : ''}
            onClick={() => {
              if (item.disabled) return;
              close();
              void item.action?.();
            }}
          >
            {item.label}
          </button>
        ))}
    </div>
  );
}
