// Personal settings: name, custom profile fields (every type) and status.
import { useId, useRef, useState } from 'preact/hooks';
import { store } from '../context.ts';
import { settingsApi } from './api.ts';
import { ErrorText, ImageSetting, PersonSelect, Section, Select, TextSetting, Toggle, useSave } from './fields.tsx';
import { Avatar, localImage } from '../Header.tsx';
import { isAdmin } from './route.ts';
import { fieldChoices, fieldUserIds, type ProfileField, type RealmEmoji } from '../../store/settings-admin.ts';
import { EmojiPicker, ReactionEmoji } from '../EmojiPicker.tsx';
import { ROLE } from '../../store/permissions.ts';

export const FIELD_TYPES: [number, string][] = [
  [1, 'Short text'],
  [2, 'Long text'],
  [3, 'List of options'],
  [4, 'Date'],
  [5, 'Link'],
  [6, 'Users'],
  [7, 'External account'],
  [8, 'Pronouns'],
];

export function ProfileSection() {
  const me = store.me;
  const user = store.users.get(me);
  // Both locks hold members back; administrators may still change theirs (as the server decides).
  const nameLocked = store.settings.realm.value.name_changes_disabled === true && !isAdmin();
  const avatarLocked = store.settings.realm.value.avatar_changes_disabled === true && !isAdmin();
  const fields = store.admin.profileFields.value;
  return (
    <>
      <Section title="Your profile">
        <TextSetting label="Full name" value={user?.full_name ?? store.settings.me.value.full_name} disabled={nameLocked} maxLength={60} onSave={(v) => settingsApi().updateSettings({ full_name: v })} />
        {nameLocked && <p class="setting-hint">The organization does not allow changing names.</p>}
      </Section>
      <Section title="Avatar">
        <ImageSetting
          noun="avatar"
          current={<Avatar userId={me} size={96} />}
          uploaded={localImage(user?.avatar_url) !== null}
          disabled={avatarLocked}
          onUpload={(file) => settingsApi().uploadAvatar(file)}
          onRemove={() => settingsApi().removeAvatar()}
        />
        {avatarLocked && <p class="setting-hint">The organization does not allow changing avatars.</p>}
      </Section>
      {fields.length > 0 && (
        <Section title="Profile fields">
          {fields.map((f) => (
            <ProfileFieldInput key={f.id} field={f} />
          ))}
        </Section>
      )}
      <StatusForm />
    </>
  );
}

function saveField(f: ProfileField, value: string | number[]): Promise<unknown> {
  const empty = Array.isArray(value) ? value.length === 0 : value.trim() === '';
  return empty ? settingsApi().clearProfileData([f.id]) : settingsApi().setProfileData([{ id: f.id, value }]);
}

function ProfileFieldInput({ field: f }: { field: ProfileField }) {
  const value = store.admin.profileData.value.get(store.me)?.[String(f.id)]?.value ?? '';
  const label = f.name + (f.required ? ' (required)' : '');
  const locked = !f.editable_by_user && (store.users.get(store.me)?.role ?? ROLE.MEMBER) > ROLE.ADMIN;
  if (f.type === 3) {
    return <Select label={label} value={value} disabled={locked} options={[{ value: '', label: 'Not set' }, ...fieldChoices(f)]} onSave={(v) => saveField(f, String(v))} />;
  }
  if (f.type === 6) return <UserFieldInput field={f} label={label} value={value} locked={locked} />;
  const type = f.type === 4 ? 'date' : f.type === 5 ? 'url' : 'text';
  return <TextSetting label={label} value={value} type={type} multiline={f.type === 2} disabled={locked} onSave={(v) => saveField(f, v)} />;
}

/** A users field: a list of people, added from a menu and removed one by one. */
function UserFieldInput({ field, label, value, locked }: { field: ProfileField; label: string; value: string; locked: boolean }) {
  const id = useId();
  const save = useSave();
  const ids = fieldUserIds(value);
  return (
    <div class="setting">
      <label for={id}>{label}</label>
      <ul class="chips">
        {ids.map((u) => (
          <li key={u}>
            {store.users.name(u)}{' '}
            <button type="button" class="link-button" disabled={locked} aria-label={`Remove ${store.users.name(u)} from ${field.name}`} onClick={() => void save.run(() => saveField(field, ids.filter((x) => x !== u)))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <PersonSelect id={id} placeholder="Add a person…" exclude={ids} bots={false} disabled={locked} onChoose={(u) => void save.run(() => saveField(field, [...ids, u]))} />
      <ErrorText id={`${id}-e`} error={save.error} />
    </div>
  );
}

function StatusForm() {
  const status = store.admin.statuses.value.get(store.me) ?? {};
  const [emoji, setEmoji] = useState<string | null>(null);
  const [text, setText] = useState<string | null>(null);
  const save = useSave();
  const emojiId = useId();
  const textId = useId();
  const [picking, setPicking] = useState(false);
  // The glyph of the emoji picked (or stored), shown beside its name.
  const [picked, setPicked] = useState<{ emoji_name: string; emoji_code: string; reaction_type: string } | null>(null);
  const chooseRef = useRef<HTMLButtonElement>(null);
  const shownEmoji = emoji ?? status.emoji_name ?? '';
  const glyph = picked && picked.emoji_name === shownEmoji ? picked : status.emoji_name && status.emoji_name === shownEmoji && status.emoji_code ? { emoji_name: status.emoji_name, emoji_code: status.emoji_code, reaction_type: status.reaction_type ?? 'unicode_emoji' } : null;
  const realmEmoji = store.admin.emoji.value as Record<string, RealmEmoji>;
  const shownText = text ?? status.status_text ?? '';
  async function submit(e: Event) {
    e.preventDefault();
    const ok = await save.run(() => settingsApi().setStatus({ status_text: shownText.trim(), emoji_name: shownEmoji.trim().replace(/^:|:$/g, '') }));
    if (ok) {
      setEmoji(null);
      setText(null);
    }
  }
  return (
    <Section title="Status">
      <form class="setting status-form" onSubmit={submit}>
        <div class="setting-line">
          <span class="field">
            <label for={emojiId}>Status emoji</label>
            <span class="status-emoji-line">
              {glyph && <ReactionEmoji reaction={glyph} realmEmoji={realmEmoji} decorative />}
              <input id={emojiId} value={shownEmoji} placeholder="e.g. palm_tree" size={14} onInput={(e) => setEmoji(e.currentTarget.value)} aria-describedby="status-error" />
              <button type="button" ref={chooseRef} aria-expanded={picking} onClick={() => setPicking(!picking)}>
                Choose emoji
              </button>
            </span>
            {picking && (
              <div class="status-emoji-picker">
                <EmojiPicker
                  label="Choose a status emoji"
                  realmEmoji={realmEmoji}
                  onClose={() => {
                    setPicking(false);
                    chooseRef.current?.focus();
                  }}
                  onSelect={(r) => {
                    setEmoji(r.emoji_name);
                    setPicked(r);
                    setPicking(false);
                    chooseRef.current?.focus();
                  }}
                />
              </div>
            )}
          </span>
          <span class="field grow">
            <label for={textId}>Status text</label>
            <input id={textId} value={shownText} maxLength={60} placeholder="What are you up to?" onInput={(e) => setText(e.currentTarget.value)} aria-describedby="status-error" />
          </span>
        </div>
        <div class="setting-line">
          <button type="submit" disabled={save.busy}>
            Set status
          </button>
          <button
            type="button"
            disabled={save.busy || (!status.status_text && !status.emoji_name)}
            onClick={() =>
              void save.run(async () => {
                await settingsApi().setStatus({ status_text: '', emoji_name: '' });
                setEmoji(null);
                setText(null);
              })
            }
          >
            Clear status
          </button>
        </div>
        <ErrorText id="status-error" error={save.error} />
      </form>
      <Toggle label="Away" hint="(others see you as away whatever your activity)" value={status.away === true} onSave={(v) => settingsApi().setStatus({ away: v })} />
    </Section>
  );
}
