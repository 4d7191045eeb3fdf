// The `?` overlay: a modal dialog named "Keyboard shortcuts" listing the one shortcut table.
//
// Interface:
//   <ShortcutsHelp onClose={() => …} />   render it while open; it opens as a modal <dialog>
//     (focus moves into it and is trapped there by the browser) and calls onClose on Esc, on the
//     "Close" button and on a click outside its box. The caller unmounts it and puts focus back
//     where it was. `?` pressed inside it reaches the app's dispatcher (action show_shortcuts),
//     which should close it.
// Styles: shortcuts-help.css (imported here), with the app's CSS variables.
import { Fragment } from 'preact';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { formatKey, SHORTCUTS, type Shortcut } from '../lib/keyboard.ts';
import './shortcuts-help.css';

export interface ShortcutsHelpProps {
  onClose: () => void;
}

const CATEGORIES: Shortcut['category'][] = ['Navigation', 'Composing', 'Message actions'];

export function ShortcutsHelp({ onClose }: ShortcutsHelpProps) {
  const ref = useRef<HTMLDialogElement>(null);

  // Layout effect: the dialog opens (and takes focus) in the frame it is rendered in.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    // Handled here, so the app's Esc (go back) does not also run behind the overlay.
    e.preventDefault();
    e.stopPropagation();
    onClose();
  };

  return (
    <dialog
      ref={ref}
      class="shortcuts-help"
      aria-labelledby="shortcuts-help-title"
      onKeyDown={onKeyDown}
      onClick={(e) => {
        if (e.target === ref.current) onClose();
      }}
    >
      <div class="shortcuts-help-box">
        <header class="shortcuts-help-header">
          <h2 id="shortcuts-help-title">Keyboard shortcuts</h2>
          <button type="button" class="shortcuts-help-close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>
        {CATEGORIES.map((category) => (
          <table key={category} class="shortcuts-help-table">
            <caption>{category}</caption>
            <thead>
              <tr>
                <th scope="col">Keys</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {SHORTCUTS.filter((s) => s.category === category).map((s) => (
                <tr key={s.action}>
                  <td>
                    {s.keys.map((k, i) => (
                      <Fragment key={k}>
                        {i > 0 && <span class="shortcuts-help-or"> or </span>}
                        <kbd>{formatKey(k)}</kbd>
                      </Fragment>
                    ))}
                  </td>
                  <td>{s.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </div>
    </dialog>
  );
}
