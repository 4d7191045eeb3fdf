// A text box as tall as its text (wrapped lines too), up to a share of the window, beyond which it scrolls.
import type { RefObject } from 'preact';
import { useLayoutEffect } from 'preact/hooks';

/** Sizes the box after each change of `deps` (its text, and whatever puts a new box on screen). */
export function useAutoGrow(ref: RefObject<HTMLTextAreaElement>, deps: unknown[], maxShare = 0.4): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight + 2, Math.round(window.innerHeight * maxShare))}px`;
  }, deps);
}
