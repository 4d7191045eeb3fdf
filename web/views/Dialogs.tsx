// Modal dialogs: delete confirmation, edit history, moving a topic, keyboard shortcuts, a person's profile.
import { useEffect, useRef, useState } from 'preact/hooks';
import { client, store } from './context.ts';
import { dialog, showToast, errorText } from './state.ts';
import { ShortcutsHelp } from './ShortcutsHelp.tsx';
import { EditHistory } from './EditHistory.tsx';
import { UserCard } from './UserCard.tsx';

function Modal({ title, children }: { title: string; children: preact.ComponentChildren }) {
  const ref = useRef<HTMLDivElement>(null);
  const opener = useRef(document.activeElement as HTMLElement | null);
  useEffect(() => {
    // A dialog may name where its focus starts (a profile card: its main action); otherwise the
    // first field, or the first button (Cancel in a confirmation, never the destructive one).
    const first = ref.current?.querySelector<HTMLElement>('[data-autofocus]') ?? ref.current?.querySelector<HTMLElement>('input, select, textarea, button');
    first?.focus();
    // A text field shows the start of what it holds (on a phone a long topic showed only its end).
    if (first instanceof HTMLInputElement && first.type === 'text') {
      first.setSelectionRange(0, 0);
      first.scrollLeft = 0;
    }
    return () => opener.current?.focus?.();
  }, []);
  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Escape') {
      e.stopPropagation();
      dialog.value = null;
    }
    if (e.key === 'Tab') {
      // Focus stays inside the dialog while it is open.
      const items = [...(ref.current?.querySelectorAll<HTMLElement>('input, select, textarea, button, a[href]') ?? [])];
      const i = items.indexOf(document.activeElement as HTMLElement);
      const to = e.shiftKey && i <= 0 ? items[items.length - 1] : !e.shiftKey && i === items.length - 1 ? items[0] : undefined;
      if (to) {
        e.preventDefault();
        to.focus();
      }
    }
  }
  return (
    <div class="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && (dialog.value = null)}>
      <div class="modal" role="dialog" aria-modal="true" aria-labelledby="modal-title" ref={ref} onKeyDown={onKeyDown}>
        <h2 id="modal-title">{title}</h2>
        {children}
      </div>
    </div>
  );
}

export function Dialogs() {
  const d = dialog.value!;
  switch (d.kind) {
    case 'delete':
      return <DeleteDialog id={d.messageId!} />;
    case 'history':
      return <HistoryDialog id={d.messageId!} />;
    case 'move':
      return <MoveDialog id={d.messageId!} />;
    case 'shortcuts':
      return <Shortcuts />;
    case 'user':
      return (
        <Modal title={store.users.name(d.userId)}>
          <UserCard userId={d.userId} />
        </Modal>
      );
  }
}

function DeleteDialog({ id }: { id: number }) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal title="Delete message?">
      <p>This deletes the message for everyone. It cannot be undone.</p>
      <div class="row end">
        <button type="button" onClick={() => (dialog.value = null)}>
          Cancel
        </button>
        <button
          type="button"
          class="primary danger"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await client.delete(id);
              dialog.value = null;
            } catch (e) {
              showToast(`Could not delete: ${errorText(e)}`, true);
              setBusy(false);
            }
          }}
        >
          Delete
        </button>
      </div>
    </Modal>
  );
}

function HistoryDialog({ id }: { id: number }) {
  return (
    <Modal title="Message edit history">
      <EditHistory id={id} />
      <div class="row end">
        <button type="button" class="primary" onClick={() => (dialog.value = null)}>
          Close
        </button>
      </div>
    </Modal>
  );
}

function MoveDialog({ id }: { id: number }) {
  const m = store.messages.byId.get(id);
  const [topic, setTopic] = useState(m?.subject ?? '');
  const [streamId, setStreamId] = useState(m?.stream_id ?? 0);
  const [mode, setMode] = useState<'change_all' | 'change_later' | 'change_one'>('change_all');
  const [busy, setBusy] = useState(false);
  if (!m) return null;
  const newTopic = topic.trim();
  // The server refuses a move that changes nothing; so does the button.
  const unchanged = newTopic === m.subject && streamId === m.stream_id;
  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    try {
      await client.moveTopic(id, { topic: newTopic !== m!.subject ? newTopic : undefined, streamId: streamId !== m!.stream_id ? streamId : undefined, mode });
      // The view on the topic follows it by the move's event (followTopicMove), for everyone.
      dialog.value = null;
    } catch (err) {
      showToast(`Could not move: ${errorText(err)}`, true);
      setBusy(false);
    }
  }
  return (
    <Modal title="Move topic">
      <form onSubmit={submit} class="stack">
        <label class="field">
          <span>New topic</span>
          <input value={topic} maxLength={60} onInput={(e) => setTopic(e.currentTarget.value)} />
        </label>
        <label class="field">
          <span>Stream</span>
          <select value={streamId} onChange={(e) => setStreamId(Number(e.currentTarget.value))}>
            {store.streams.sorted.value.map((s) => (
              <option key={s.stream_id} value={s.stream_id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          <span>Which messages</span>
          <select value={mode} onChange={(e) => setMode(e.currentTarget.value as typeof mode)}>
            <option value="change_all">All messages in the topic</option>
            <option value="change_later">This and later messages</option>
            <option value="change_one">Only this message</option>
          </select>
        </label>
        <div class="row end">
          <button type="button" onClick={() => (dialog.value = null)}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={busy || unchanged}>
            Move
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The ? overlay; focus goes back where it was when it closes. */
function Shortcuts() {
  const opener = useRef(document.activeElement as HTMLElement | null);
  useEffect(() => () => opener.current?.focus?.(), []);
  return <ShortcutsHelp onClose={() => (dialog.value = null)} />;
}
