// Organization administration: custom emoji, uploaded with a preview, and removed.
import { useId, useState } from 'preact/hooks';
import { store } from '../context.ts';
import { settingsApi } from '../settings/api.ts';
import { ConfirmLine, ErrorText, focusPageAfterRemoval, IMAGE_TYPES, Section, useObjectUrl, useSave } from '../settings/fields.tsx';

export function EmojiSection() {
  const save = useSave();
  // This page cannot bring a removed emoji back: asked once more first.
  const [confirm, setConfirm] = useState<string | null>(null);
  const emoji = Object.values(store.admin.emoji.value)
    .filter((e) => !e.deactivated)
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <>
      <AddEmoji />
      <Section title="Custom emoji">
        {emoji.length === 0 && <p class="setting-hint">No custom emoji yet.</p>}
        <ul class="plain-list emoji-list">
          {emoji.map((e) => (
            <li key={e.id}>
              <img src={e.source_url} alt="" width={24} height={24} />
              <span class="grow">:{e.name}:</span>
              <span class="setting-hint">{e.author_id ? store.users.name(e.author_id) : ''}</span>
              <button type="button" disabled={save.busy} aria-expanded={confirm === e.name} onClick={() => setConfirm(confirm === e.name ? null : e.name)}>
                Remove <span class="sr-only">emoji {e.name}</span>
              </button>
              {confirm === e.name && (
                <ConfirmLine
                  question={`Remove :${e.name}:? Nobody can use it in new messages or reactions.`}
                  confirm="Confirm removal"
                  busy={save.busy}
                  onConfirm={() => void save.run(() => settingsApi().removeEmoji(e.name)).then((ok) => ok && (setConfirm(null), focusPageAfterRemoval()))}
                  onCancel={() => setConfirm(null)}
                />
              )}
            </li>
          ))}
        </ul>
        <ErrorText id="emoji-remove-error" error={save.error} />
      </Section>
    </>
  );
}

function AddEmoji() {
  const [name, setName] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [formKey, setFormKey] = useState(0);
  const save = useSave();
  const nameId = useId();
  const fileId = useId();
  const preview = useObjectUrl(file);
  async function submit(e: Event) {
    e.preventDefault();
    if (!file) return;
    const ok = await save.run(() => settingsApi().uploadEmoji(name.trim(), file));
    if (ok) {
      setName('');
      setFile(null);
      setFormKey(formKey + 1);
    }
  }
  return (
    <Section title="Add an emoji">
      <form class="setting" onSubmit={submit} key={formKey}>
        <div class="setting-line">
          <span class="field">
            <label for={nameId}>Emoji name</label>
            <input id={nameId} value={name} placeholder="e.g. party_parrot" onInput={(e) => setName(e.currentTarget.value)} aria-describedby="emoji-add-error" />
          </span>
          <span class="field">
            <label for={fileId}>Emoji image</label>
            <input id={fileId} type="file" accept={IMAGE_TYPES} onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
          </span>
          {preview && (
            <span class="emoji-preview">
              <img src={preview} alt={`Preview of :${name || 'new emoji'}:`} width={32} height={32} />
            </span>
          )}
          <button type="submit" class="primary" disabled={!name.trim() || !file || save.busy}>
            Add emoji
          </button>
        </div>
        <ErrorText id="emoji-add-error" error={save.error} />
      </form>
    </Section>
  );
}
