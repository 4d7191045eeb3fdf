// The small one-line forms of widgets (a new option, a new task, a new question): the text is
// kept until the server took it, and a refusal shows as a toast.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { errorText, showToast } from '../state.ts';

export function InlineForm({
  label,
  submitLabel,
  initial = '',
  autoFocus,
  onSubmit,
  onCancel,
  children,
}: {
  label: string;
  submitLabel: string;
  initial?: string;
  autoFocus?: boolean;
  /** Sends the text (and whatever `children` hold); resolves when the server took it. */
  onSubmit: (text: string, form: HTMLFormElement) => Promise<void>;
  onCancel?: () => void;
  children?: ComponentChildren;
}) {
  const [text, setText] = useState(initial);
  const [busy, setBusy] = useState(false);
  async function submit(e: Event) {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    if (!text.trim() || busy) return;
    setBusy(true);
    try {
      await onSubmit(text.trim(), form);
      setText('');
      form.reset();
    } catch (err) {
      showToast(errorText(err), true);
    }
    setBusy(false);
  }
  return (
    <form
      class="widget-form"
      onSubmit={submit}
      onClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && onCancel) {
          e.stopPropagation();
          onCancel();
        }
      }}
    >
      <input aria-label={label} placeholder={label} value={text} maxLength={500} autoFocus={autoFocus} onInput={(e) => setText(e.currentTarget.value)} />
      {children}
      <button type="submit" disabled={busy || !text.trim()}>
        {submitLabel}
      </button>
      {onCancel && (
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      )}
    </form>
  );
}

/** A widget's heading (a poll's question, a todo list's title), which its author may change in place. */
export function WidgetHeading({ id, value, fallback, canEdit, editLabel, fieldLabel, onSave }: {
  id: string;
  value: string;
  fallback: string;
  canEdit: boolean;
  editLabel: string;
  fieldLabel: string;
  onSave: (text: string) => Promise<void>;
}) {
  const [editing, setEditing] = useState(false);
  const heading = value || fallback;
  if (editing) {
    return (
      <>
        <h3 id={id} class="sr-only">
          {heading}
        </h3>
        <InlineForm
          label={fieldLabel}
          submitLabel="Save"
          initial={value}
          autoFocus
          onSubmit={async (text) => {
            await onSave(text);
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      </>
    );
  }
  return (
    <div class="widget-head">
      <h3 id={id}>{heading}</h3>
      {canEdit && (
        <button type="button" class="widget-edit" onClick={(e) => (e.stopPropagation(), setEditing(true))}>
          {editLabel}
        </button>
      )}
    </div>
  );
}
