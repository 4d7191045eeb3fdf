// Organization administration: create streams (public or private, description, who can post),
// edit and archive them, their subscribers, and the default streams new members join.
import { useEffect, useId, useState } from 'preact/hooks';
import { store } from '../context.ts';
import { settingsApi } from '../settings/api.ts';
import { ConfirmLine, ErrorText, PersonSelect, Section, Select, TextSetting, Toggle, useSave } from '../settings/fields.tsx';
import { hashFor } from '../nav.ts';

const POST_POLICIES: [number, string][] = [
  [1, 'Everyone'],
  [2, 'Administrators only'],
  [3, 'Full members'],
  [4, 'Moderators and administrators'],
];

interface StreamRow {
  stream_id: number;
  name: string;
  description: string;
  invite_only: boolean;
  stream_post_policy?: number;
}

export function allStreams(): StreamRow[] {
  const byId = new Map<number, StreamRow>();
  for (const s of store.streams.streams.value.values()) byId.set(s.stream_id, s as StreamRow);
  for (const s of store.streams.subs.value.values()) byId.set(s.stream_id, { ...(s as unknown as StreamRow), ...byId.get(s.stream_id) });
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export function StreamsSection() {
  const [open, setOpen] = useState<number | null>(null);
  const streams = allStreams();
  const defaults = new Set(store.admin.defaultStreams.value);
  return (
    <>
      <CreateStream />
      <Section title="All streams">
        <ul class="plain-list streams-list">
          {streams.map((s) => (
            <li key={s.stream_id} class={open === s.stream_id ? 'open' : ''}>
              <div class="setting-line">
                <span class="grow">
                  <strong>
                    {s.invite_only ? '🔒 ' : '#'}
                    {s.name}
                  </strong>
                  {defaults.has(s.stream_id) && <span class="badge">default</span>}
                  <SubscriberCount streamId={s.stream_id} />
                  {s.description && <span class="setting-hint stream-description">{s.description}</span>}
                </span>
                <button type="button" aria-expanded={open === s.stream_id} onClick={() => setOpen(open === s.stream_id ? null : s.stream_id)}>
                  Edit <span class="sr-only">stream {s.name}</span>
                </button>
              </div>
              {open === s.stream_id && <EditStream stream={s} isDefault={defaults.has(s.stream_id)} />}
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}

/** How many people are subscribed, from the store's subscriber lists (nothing while not known). */
function SubscriberCount({ streamId }: { streamId: number }) {
  const n = store.streams.subscribers.value.get(streamId)?.size;
  if (n === undefined) return null;
  return <span class="subscriber-count">{n === 1 ? '1 subscriber' : `${n} subscribers`}</span>;
}

/**
 * The form to create a stream. Members see it too (Personal settings › Streams) when the
 * organization's policies let them create public or private streams, and only the kinds allowed.
 */
export function CreateStream({ allowPublic = true, allowPrivate = true }: { allowPublic?: boolean; allowPrivate?: boolean }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [chosenPriv, setPriv] = useState(false);
  const priv = allowPublic ? allowPrivate && chosenPriv : true;
  const [policy, setPolicy] = useState(1);
  /** The name of the stream this form made last: a link to it once its event has come. */
  const [created, setCreated] = useState<string | null>(null);
  const save = useSave();
  const ids = [useId(), useId(), useId(), useId()] as const;
  const made = created === null ? undefined : allStreams().find((s) => s.name === created);
  async function submit(e: Event) {
    e.preventDefault();
    const wanted = name.trim();
    setCreated(null);
    const ok = await save.run(async () => {
      // The API subscribes to a stream that exists instead of refusing the name: said here instead.
      const taken = allStreams().find((s) => s.name.toLowerCase() === wanted.toLowerCase());
      if (taken) throw new Error(`A stream named #${taken.name} already exists.`);
      await settingsApi().createStream({ name: wanted, description, invite_only: priv, stream_post_policy: policy, principals: [store.me] });
    });
    if (ok) {
      setCreated(wanted);
      setName('');
      setDescription('');
      setPriv(false);
      setPolicy(1);
    }
  }
  return (
    <Section title="Create a stream">
      <form class="setting" onSubmit={submit}>
        <div class="setting-line">
          <span class="field">
            <label for={ids[0]}>Stream name</label>
            <input id={ids[0]} value={name} maxLength={60} onInput={(e) => setName(e.currentTarget.value)} aria-describedby="create-stream-error" />
          </span>
          <span class="field grow">
            <label for={ids[1]}>Stream description</label>
            <input id={ids[1]} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
          </span>
        </div>
        {allowPrivate && (
          <div class="setting-line">
            <span class="toggle">
              <input id={ids[2]} type="checkbox" checked={priv} disabled={!allowPublic} onChange={(e) => setPriv(e.currentTarget.checked)} />
              <label for={ids[2]}>Private (only subscribers see it)</label>
            </span>
          </div>
        )}
        <div class="setting-line">
          <span class="field">
            <label for={ids[3]}>Who can post</label>
            <select id={ids[3]} value={String(policy)} onChange={(e) => setPolicy(Number(e.currentTarget.value))}>
              {POST_POLICIES.map(([v, l]) => (
                <option key={v} value={String(v)}>
                  {l}
                </option>
              ))}
            </select>
          </span>
          <button type="submit" class="primary" disabled={!name.trim() || save.busy}>
            Create stream
          </button>
        </div>
        <ErrorText id="create-stream-error" error={save.error} />
        {made && (
          <p class="setting-hint" role="status">
            Created #{made.name}. <a href={hashFor([{ operator: 'stream', operand: made.stream_id }])}>Go to #{made.name}</a>
          </p>
        )}
      </form>
    </Section>
  );
}

function EditStream({ stream: s, isDefault }: { stream: StreamRow; isDefault: boolean }) {
  const save = useSave();
  const [confirm, setConfirm] = useState(false);
  return (
    <div class="edit-box" role="group" aria-label={`Edit stream ${s.name}`}>
      <TextSetting label="Name" value={s.name} onSave={(v) => settingsApi().updateStream(s.stream_id, { new_name: v })} />
      <TextSetting label="Description" value={s.description} onSave={(v) => settingsApi().updateStream(s.stream_id, { description: v })} />
      <Toggle label="Private" value={s.invite_only} onSave={(v) => settingsApi().updateStream(s.stream_id, { is_private: v })} />
      <Select label="Who can post" value={s.stream_post_policy ?? 1} options={POST_POLICIES.map(([value, label]) => ({ value, label }))} onSave={(v) => settingsApi().updateStream(s.stream_id, { stream_post_policy: v })} />
      <Toggle label="Default stream for new members" value={isDefault} onSave={(v) => settingsApi().setDefaultStream(s.stream_id, v)} />
      <Subscribers stream={s} />
      {confirm ? (
        <ConfirmLine
          question={`Archive #${s.name}? Nobody can send to it any more.`}
          confirm="Confirm archiving"
          busy={save.busy}
          onConfirm={() => void save.run(() => settingsApi().archiveStream(s.stream_id))}
          onCancel={() => setConfirm(false)}
        />
      ) : (
        <button type="button" class="danger-outline" onClick={() => setConfirm(true)}>
          Archive stream
        </button>
      )}
      <ErrorText id={`archive-${s.stream_id}-e`} error={save.error} />
    </div>
  );
}

/** The subscribers by name, fetched when opened (the list above counts them from the store). */
function Subscribers({ stream: s }: { stream: StreamRow }) {
  const [members, setMembers] = useState<number[] | null>(null);
  const save = useSave();
  const id = useId();
  const reload = () => settingsApi().streamMembers(s.stream_id).then(setMembers);
  // Fetched again when anyone's subscriptions change (an event), so the list follows other tabs and people.
  const version = store.admin.subscribersVersion.value;
  useEffect(() => {
    void save.run(reload);
  }, [s.stream_id, version]);
  return (
    <div class="setting">
      <h4>Subscribers{members ? ` (${members.length})` : ''}</h4>
      <ul class="chips">
        {(members ?? []).map((u) => (
          <li key={u}>
            {store.users.name(u)}{' '}
            <button type="button" class="link-button" aria-label={`Unsubscribe ${store.users.name(u)}`} onClick={() => void save.run(async () => (await settingsApi().unsubscribe(s.name, [u]), await reload()))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <label for={id}>Subscribe someone</label>{' '}
      <PersonSelect id={id} placeholder="Choose a person…" exclude={members ?? []} onChoose={(u) => void save.run(async () => (await settingsApi().subscribe(s.name, [u]), await reload()))} />
      <ErrorText id={`${id}-e`} error={save.error} />
    </div>
  );
}
