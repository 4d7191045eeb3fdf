// Organization administration: custom profile fields of every type, added, renamed, removed
// and reordered.
import { useId, useState } from 'preact/hooks';
import { store } from '../context.ts';
import { settingsApi } from '../settings/api.ts';
import { ConfirmLine, ErrorText, Section, TextSetting, Toggle, focusPageAfterRemoval, useSave } from '../settings/fields.tsx';
import { FIELD_TYPES } from '../settings/Profile.tsx';
import { fieldChoices, type ProfileField } from '../../store/settings-admin.ts';

const typeName = (t: number): string => FIELD_TYPES.find(([v]) => v === t)?.[1] ?? 'Field';

export function ProfileFieldsSection() {
  const save = useSave();
  const [open, setOpen] = useState<number | null>(null);
  // Removing a field deletes what everyone entered in it: asked once more first.
  const [confirm, setConfirm] = useState<number | null>(null);
  const fields = store.admin.profileFields.value;
  function move(i: number, by: number) {
    const order = fields.map((f) => f.id);
    const [id] = order.splice(i, 1);
    order.splice(i + by, 0, id!);
    void save.run(() => settingsApi().reorderProfileFields(order));
  }
  return (
    <>
      <AddField />
      <Section title="Profile fields">
        {fields.length === 0 && <p class="setting-hint">No custom profile fields yet.</p>}
        <ol class="plain-list">
          {fields.map((f, i) => (
            <li key={f.id}>
              <div class="setting-line">
                <span class="grow">
                  <strong>{f.name}</strong> <span class="setting-hint">{typeName(f.type)}</span>
                </span>
                <button type="button" disabled={i === 0 || save.busy} onClick={() => move(i, -1)} aria-label={`Move ${f.name} up`}>
                  ↑
                </button>
                <button type="button" disabled={i === fields.length - 1 || save.busy} onClick={() => move(i, 1)} aria-label={`Move ${f.name} down`}>
                  ↓
                </button>
                <button type="button" aria-expanded={open === f.id} onClick={() => setOpen(open === f.id ? null : f.id)}>
                  Edit <span class="sr-only">field {f.name}</span>
                </button>
                <button type="button" disabled={save.busy} aria-expanded={confirm === f.id} onClick={() => setConfirm(confirm === f.id ? null : f.id)}>
                  Remove <span class="sr-only">field {f.name}</span>
                </button>
              </div>
              {confirm === f.id && (
                <ConfirmLine
                  question={`Remove ${f.name}? What everyone entered in it is deleted too.`}
                  confirm="Confirm removal"
                  busy={save.busy}
                  onConfirm={() => void save.run(() => settingsApi().removeProfileField(f.id)).then((ok) => ok && (setConfirm(null), focusPageAfterRemoval()))}
                  onCancel={() => setConfirm(null)}
                />
              )}
              {open === f.id && <EditField field={f} />}
            </li>
          ))}
        </ol>
        <ErrorText id="fields-error" error={save.error} />
      </Section>
    </>
  );
}

function EditField({ field: f }: { field: ProfileField }) {
  return (
    <div class="edit-box" role="group" aria-label={`Edit field ${f.name}`}>
      <TextSetting label="Field name" value={f.name} onSave={(v) => settingsApi().updateProfileField(f.id, { name: v })} />
      <TextSetting label="Hint" value={f.hint} onSave={(v) => settingsApi().updateProfileField(f.id, { hint: v })} />
      {f.type === 3 && (
        <TextSetting
          label="Choices, one a line"
          multiline
          value={fieldChoices(f)
            .map((c) => c.label)
            .join('\n')}
          onSave={(v) => settingsApi().updateProfileField(f.id, { field_data: choicesData(v, f) })}
        />
      )}
      <Toggle label="Required" value={f.required} onSave={(v) => settingsApi().updateProfileField(f.id, { required: v })} />
      <Toggle label="People can change their own value" value={f.editable_by_user} onSave={(v) => settingsApi().updateProfileField(f.id, { editable_by_user: v })} />
      <Toggle label="Show in the profile summary" value={f.display_in_profile_summary === true} onSave={(v) => settingsApi().updateProfileField(f.id, { display_in_profile_summary: v })} />
    </div>
  );
}

/**
 * A list field's choices, one a line, in the API's field_data form. A choice kept from `old`
 * keeps its key, so the people who chose it keep their value; new choices get new keys.
 */
function choicesData(lines: string, old?: ProfileField): string {
  const known = new Map((old ? fieldChoices(old) : []).map((c) => [c.label, c.value]));
  let next = Math.max(-1, ...[...known.values()].map(Number).filter(Number.isFinite)) + 1;
  const data: Record<string, { text: string; order: string }> = {};
  lines
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .forEach((text, i) => (data[known.get(text) ?? String(next++)] = { text, order: String(i) }));
  return JSON.stringify(data);
}

const ACCOUNTS: [string, string][] = [
  ['github', 'GitHub'],
  ['twitter', 'Twitter'],
];

function AddField() {
  const [name, setName] = useState('');
  const [hint, setHint] = useState('');
  const [type, setType] = useState(1);
  const [choices, setChoices] = useState('');
  const [account, setAccount] = useState('github');
  const save = useSave();
  const ids = [useId(), useId(), useId(), useId(), useId()] as const;
  async function submit(e: Event) {
    e.preventDefault();
    const fieldData = type === 3 ? choicesData(choices) : type === 7 ? JSON.stringify({ subtype: account }) : undefined;
    const ok = await save.run(() => settingsApi().addProfileField({ name: name.trim(), hint, field_type: type, field_data: fieldData }));
    if (ok) {
      setName('');
      setHint('');
      setChoices('');
    }
  }
  return (
    <Section title="Add a profile field">
      <form class="setting" onSubmit={submit}>
        <div class="setting-line">
          <span class="field">
            <label for={ids[0]}>Type</label>
            <select id={ids[0]} value={String(type)} onChange={(e) => setType(Number(e.currentTarget.value))}>
              {FIELD_TYPES.map(([v, l]) => (
                <option key={v} value={String(v)}>
                  {l}
                </option>
              ))}
            </select>
          </span>
          {type !== 7 && (
            <span class="field">
              <label for={ids[1]}>Label</label>
              <input id={ids[1]} value={name} onInput={(e) => setName(e.currentTarget.value)} aria-describedby="add-field-error" />
            </span>
          )}
          <span class="field grow">
            <label for={ids[2]}>Hint</label>
            <input id={ids[2]} value={hint} onInput={(e) => setHint(e.currentTarget.value)} />
          </span>
        </div>
        {type === 3 && (
          <span class="field">
            <label for={ids[3]}>Choices, one a line</label>
            <textarea id={ids[3]} rows={3} value={choices} onInput={(e) => setChoices(e.currentTarget.value)} />
          </span>
        )}
        {type === 7 && (
          <span class="field">
            <label for={ids[4]}>Account site</label>
            <select id={ids[4]} value={account} onChange={(e) => setAccount(e.currentTarget.value)}>
              {ACCOUNTS.map(([v, l]) => (
                <option key={v} value={v}>
                  {l}
                </option>
              ))}
            </select>
          </span>
        )}
        <div class="setting-line">
          <button type="submit" class="primary" disabled={save.busy || (type !== 7 && !name.trim())}>
            Add field
          </button>
        </div>
        <ErrorText id="add-field-error" error={save.error} />
      </form>
    </Section>
  );
}
