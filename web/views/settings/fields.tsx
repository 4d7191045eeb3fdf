// Form controls of the settings pages. Each shows the stored value (from the store, which
// events keep current), saves through the API, and on a refusal shows the server's message
// next to itself and goes back to the stored value: bad input changes nothing.
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { errorText } from '../state.ts';
import { store } from '../context.ts';
import { settingsApi } from './api.ts';

/**
 * After something is removed from a settings page, its focused button goes with it (at once, or
 * when the list's event or refetch arrives): the focus then goes to the page's title, so the
 * keys stay in the overlay.
 */
export function focusPageAfterRemoval(): void {
  const was = document.activeElement;
  const settle = () => {
    const active = document.activeElement;
    if (!active || active === document.body) document.getElementById('settings-page-title')?.focus();
  };
  if (!was || was === document.body || !was.isConnected) {
    requestAnimationFrame(settle);
    return;
  }
  const watch = new MutationObserver(() => {
    if (was.isConnected) return;
    watch.disconnect();
    settle();
  });
  watch.observe(document.body, { childList: true, subtree: true });
  setTimeout(() => watch.disconnect(), 5000);
}

/**
 * The line that asks before something that cannot be undone (archiving, deactivating, removing):
 * what it does, the button that does it, and Cancel. The keys stay with it: when the button that
 * asked gave way to the line, the focus goes to Cancel; Cancel gives it back to that button, or
 * to the one that takes the line's place.
 */
export function ConfirmLine(props: { question: ComponentChildren; confirm: string; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const line = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const back = useRef<{ opener: Element | null; parent: Element | null; index: number }>({ opener: null, parent: null, index: -1 });
  useLayoutEffect(() => {
    const el = line.current;
    const active = document.activeElement;
    const kept = active !== null && active !== document.body && active.isConnected;
    back.current = { opener: kept ? active : null, parent: el?.parentElement ?? null, index: el?.parentElement ? [...el.parentElement.children].indexOf(el) : -1 };
    if (!kept) cancel.current?.focus();
  }, []);
  function onCancel() {
    const { opener, parent, index } = back.current;
    props.onCancel();
    requestAnimationFrame(() => {
      const inPlace = parent?.children[index];
      const target = opener?.isConnected ? opener : inPlace?.matches('button') ? inPlace : null;
      if (target instanceof HTMLElement) target.focus();
    });
  }
  return (
    <div class="setting-line" role="alert" ref={line}>
      <span>{props.question}</span>
      <button type="button" class="danger" disabled={props.busy} onClick={props.onConfirm}>
        {props.confirm}
      </button>
      <button type="button" ref={cancel} onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** Runs a save and keeps its error (the server's `msg`) for the control to show. */
export function useSave(): { error: string; busy: boolean; done: boolean; run: (fn: () => Promise<unknown>) => Promise<boolean>; clear: () => void } {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  return {
    error,
    busy,
    done,
    clear: () => setError(''),
    async run(fn) {
      setBusy(true);
      setError('');
      setDone(false);
      try {
        await fn();
        setDone(true);
        return true;
      } catch (e) {
        setError(errorText(e));
        return false;
      } finally {
        setBusy(false);
      }
    },
  };
}

export function ErrorText({ id, error }: { id: string; error: string }) {
  return (
    <span id={id} class="setting-error" role={error ? 'alert' : undefined}>
      {error}
    </span>
  );
}

/** A value shown optimistically while its save is under way, then the store's again. */
export function usePending<T>(stored: T): [T, (v: T | undefined) => void] {
  const [pending, setPending] = useState<{ v: T } | null>(null);
  useEffect(() => setPending(null), [stored]);
  return [pending ? pending.v : stored, (v) => setPending(v === undefined ? null : { v })];
}

export function Toggle({ label, value, onSave, disabled, hint }: { label: string; value: boolean; onSave: (v: boolean) => Promise<unknown>; disabled?: boolean; hint?: string }) {
  const id = useId();
  const save = useSave();
  const [shown, setShown] = usePending(value);
  return (
    <div class="setting toggle">
      <input
        type="checkbox"
        id={id}
        checked={shown}
        disabled={disabled}
        aria-describedby={`${id}-e`}
        onChange={async (e) => {
          const v = e.currentTarget.checked;
          setShown(v);
          if (!(await save.run(() => onSave(v)))) setShown(undefined);
        }}
      />
      <label for={id}>
        {label}
        {hint && <span class="setting-hint"> {hint}</span>}
      </label>
      <ErrorText id={`${id}-e`} error={save.error} />
    </div>
  );
}

export interface Option {
  value: string | number;
  label: string;
}

export function Select({ label, value, options, onSave, disabled }: { label: string; value: string | number | null | undefined; options: Option[]; onSave: (v: string | number) => Promise<unknown>; disabled?: boolean }) {
  const id = useId();
  const save = useSave();
  const [shown, setShown] = usePending(value);
  const known = options.some((o) => String(o.value) === String(shown));
  return (
    <div class="setting select">
      <label for={id}>{label}</label>
      <select
        id={id}
        value={String(shown ?? '')}
        disabled={disabled}
        aria-describedby={`${id}-e`}
        onChange={async (e) => {
          // Kept: the event's currentTarget is null once the save has been awaited.
          const select = e.currentTarget;
          const opt = options.find((o) => String(o.value) === select.value);
          if (!opt) return;
          setShown(opt.value);
          if (!(await save.run(() => onSave(opt.value)))) {
            setShown(undefined);
            select.value = String(value ?? '');
          }
        }}
      >
        {!known && <option value={String(shown ?? '')}>{String(shown ?? '—')}</option>}
        {options.map((o) => (
          <option key={String(o.value)} value={String(o.value)}>
            {o.label}
          </option>
        ))}
      </select>
      <ErrorText id={`${id}-e`} error={save.error} />
    </div>
  );
}

/**
 * A menu of the organization's active people, by name, less `exclude` (and bots unless `bots`):
 * choosing one calls `onChoose` and the menu shows its placeholder again.
 */
export function PersonSelect({ id, placeholder, exclude, bots = true, disabled, onChoose }: { id: string; placeholder: string; exclude: readonly number[]; bots?: boolean; disabled?: boolean; onChoose: (userId: number) => void }) {
  const people = store.users.active.value.filter((u) => (bots || !u.is_bot) && !exclude.includes(u.user_id)).sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <select
      id={id}
      disabled={disabled}
      value=""
      onChange={(e) => {
        const u = Number(e.currentTarget.value);
        e.currentTarget.value = '';
        if (u) onChoose(u);
      }}
    >
      <option value="">{placeholder}</option>
      {people.map((u) => (
        <option key={u.user_id} value={u.user_id}>
          {u.full_name}
        </option>
      ))}
    </select>
  );
}

/** A text value with its own Save button (saved on Enter too). */
export function TextSetting({
  label,
  value,
  onSave,
  multiline,
  type = 'text',
  disabled,
  maxLength,
}: {
  label: string;
  value: string;
  onSave: (v: string) => Promise<unknown>;
  multiline?: boolean;
  type?: string;
  disabled?: boolean;
  maxLength?: number;
}) {
  const id = useId();
  const save = useSave();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const dirty = text !== value;
  async function submit(e: Event) {
    e.preventDefault();
    if (!(await save.run(() => onSave(text)))) return;
  }
  const input = multiline ? (
    <textarea id={id} value={text} rows={3} disabled={disabled} maxLength={maxLength} aria-describedby={`${id}-e`} onInput={(e) => setText(e.currentTarget.value)} />
  ) : (
    <input id={id} type={type} value={text} disabled={disabled} maxLength={maxLength} aria-describedby={`${id}-e`} onInput={(e) => setText(e.currentTarget.value)} />
  );
  return (
    <form class="setting text" onSubmit={submit}>
      <label for={id}>{label}</label>
      <div class="setting-line">
        {input}
        <button type="submit" disabled={disabled || save.busy || !dirty} aria-label={`Save ${label.toLowerCase()}`}>
          Save
        </button>
        {dirty && (
          <button
            type="button"
            class="link-button"
            onClick={() => {
              setText(value);
              save.clear();
            }}
          >
            Cancel
          </button>
        )}
      </div>
      <ErrorText id={`${id}-e`} error={save.error} />
    </form>
  );
}

export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  const id = useId();
  return (
    <section class="settings-group" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

/** The image types the server takes for emoji, avatars and the organization icon. */
export const IMAGE_TYPES = 'image/png,image/gif,image/jpeg,image/webp';

/** A URL showing a chosen file before it is uploaded; released when the file changes. */
export function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) return setUrl(null);
    const u = URL.createObjectURL(file);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [file]);
  return url;
}

/**
 * An uploaded image (avatar, organization icon): the current one, a file picker whose choice
 * is previewed before it is uploaded, and removal. `noun` names it in the controls ("avatar").
 */
export function ImageSetting({
  noun,
  current,
  uploaded,
  onUpload,
  onRemove,
  disabled,
}: {
  noun: string;
  /** The image shown now (the store's, so it follows events). */
  current: ComponentChildren;
  /** Whether an uploaded image is set (there is something to remove). */
  uploaded: boolean;
  onUpload: (file: File) => Promise<unknown>;
  onRemove: () => Promise<unknown>;
  disabled?: boolean;
}) {
  const id = useId();
  const save = useSave();
  const [file, setFile] = useState<File | null>(null);
  const [formKey, setFormKey] = useState(0);
  const preview = useObjectUrl(file);
  const reset = () => {
    setFile(null);
    setFormKey(formKey + 1);
    save.clear();
  };
  async function submit(e: Event) {
    e.preventDefault();
    if (file && (await save.run(() => onUpload(file)))) reset();
  }
  return (
    <form class="setting image-setting" onSubmit={submit} key={formKey}>
      <div class="image-setting-current">{preview ? <img class="avatar" src={preview} alt={`Preview of the new ${noun}`} width={96} height={96} /> : current}</div>
      <div class="image-setting-controls">
        <label for={id}>Choose a new {noun}</label>
        <input
          id={id}
          type="file"
          accept={IMAGE_TYPES}
          disabled={disabled}
          aria-describedby={`${id}-hint ${id}-e`}
          onChange={(e) => {
            setFile(e.currentTarget.files?.[0] ?? null);
            save.clear();
          }}
        />
        <span id={`${id}-hint`} class="setting-hint">
          PNG, JPEG, GIF or WebP, at most 5 MiB; it is cropped to a square.
        </span>
        <div class="setting-line">
          {file ? (
            <>
              <button type="submit" class="primary" disabled={save.busy}>
                Upload {noun}
              </button>
              <button type="button" class="link-button" onClick={reset}>
                Cancel
              </button>
            </>
          ) : (
            uploaded && (
              <button type="button" disabled={disabled || save.busy} onClick={() => void save.run(onRemove)}>
                Remove {noun}
              </button>
            )
          )}
        </div>
        <ErrorText id={`${id}-e`} error={save.error} />
      </div>
    </form>
  );
}

// --- bound to the store ---------------------------------------------------------------------

export function UserToggle({ prop, label, hint }: { prop: string; label: string; hint?: string }) {
  return <Toggle label={label} hint={hint} value={store.settings.user.value[prop] === true} onSave={(v) => settingsApi().updateSettings({ [prop]: v })} />;
}

export function UserSelect({ prop, label, options }: { prop: string; label: string; options: Option[] }) {
  return <Select label={label} value={store.settings.user.value[prop] as string | number} options={options} onSave={(v) => settingsApi().updateSettings({ [prop]: v })} />;
}

export function RealmToggle({ prop, label, disabled }: { prop: string; label: string; disabled?: boolean }) {
  return <Toggle label={label} disabled={disabled} value={store.settings.realm.value[prop] === true} onSave={(v) => settingsApi().updateRealm({ [prop]: v })} />;
}

export function RealmSelect({ prop, label, options, disabled }: { prop: string; label: string; options: Option[]; disabled?: boolean }) {
  const raw = store.settings.realm.value[prop];
  // Time limits: null in the store is "unlimited" in the API.
  return <Select label={label} disabled={disabled} value={raw === null ? 'unlimited' : (raw as string | number)} options={options} onSave={(v) => settingsApi().updateRealm({ [prop]: v })} />;
}
