// Personal settings: every stream one may join, subscribed to or left here (a subscribed one's colour and muting too),
// and a new stream created when the organization's policies allow it (the form follows the policies live).
import { store } from '../context.ts';
import { settingsApi } from './api.ts';
import { ErrorText, Section, usePending, useSave } from './fields.tsx';
import { allStreams, CreateStream } from '../admin/Streams.tsx';
import { policyAllows, ROLE } from '../../store/permissions.ts';
import { hashFor } from '../nav.ts';
import type { Subscription } from '../../store/types.ts';

export function StreamsPage() {
  const realm = store.settings.realm.value;
  const role = store.users.get(store.me)?.role ?? ROLE.MEMBER;
  const allowPublic = policyAllows(realm.create_public_stream_policy ?? 1, role);
  const allowPrivate = policyAllows(realm.create_private_stream_policy ?? 1, role);
  const subscribed = store.streams.subs.value;
  const streams = allStreams();
  return (
    <>
      {allowPublic || allowPrivate ? (
        <CreateStream allowPublic={allowPublic} allowPrivate={allowPrivate} />
      ) : (
        <Section title="Create a stream">
          <p class="setting-hint">The organization lets only some people create streams; ask an administrator.</p>
        </Section>
      )}
      <Section title="All streams">
        {streams.length === 0 && <p class="setting-hint">No streams yet.</p>}
        <ul class="plain-list" aria-label="All streams">
          {streams.map((s) => (
            <StreamRow key={s.stream_id} id={s.stream_id} name={s.name} description={s.description} priv={s.invite_only} sub={subscribed.get(s.stream_id)} />
          ))}
        </ul>
      </Section>
    </>
  );
}

function StreamRow({ id, name, description, priv, sub }: { id: number; name: string; description: string; priv: boolean; sub: Subscription | undefined }) {
  const save = useSave();
  // Shown at once while saving, then as the store has it (a refused change goes back).
  const [color, setColor] = usePending(sub?.color ?? '');
  const [muted, setMuted] = usePending(sub?.is_muted ?? false);
  async function setProperty<T extends string | boolean>(property: 'color' | 'is_muted', value: T, show: (v: T | undefined) => void) {
    show(value);
    if (!(await save.run(() => settingsApi().setSubscriptionProperty(id, property, value)))) show(undefined);
  }
  return (
    <li>
      <span class="grow">
        {/* Opens the stream (closing settings): its messages, subscribed or not. */}
        <a class="settings-stream-link" href={hashFor([{ operator: 'stream', operand: id }])}>
          {priv ? '🔒 ' : '#'}
          {name}
        </a>
        {description && <span class="setting-hint"> {description}</span>}
      </span>
      {sub && (
        // Your own colour for the stream (its swatch in the sidebar) and muting, beside leaving it.
        <span class="stream-row-controls">
          <input type="color" value={color} disabled={save.busy} aria-label={`Colour of #${name}`} onChange={(e) => void setProperty('color', e.currentTarget.value, setColor)} />
          <label class="inline-toggle">
            <input type="checkbox" checked={muted} disabled={save.busy} onChange={(e) => void setProperty('is_muted', e.currentTarget.checked, setMuted)} />
            Mute<span class="sr-only"> #{name}</span>
          </label>
        </span>
      )}
      {sub ? (
        <button type="button" disabled={save.busy} onClick={() => void save.run(() => settingsApi().unsubscribe(name, [store.me]))}>
          Unsubscribe <span class="sr-only">from {name}</span>
        </button>
      ) : (
        <button type="button" class="primary" disabled={save.busy} onClick={() => void save.run(() => settingsApi().subscribe(name, [store.me]))}>
          Subscribe <span class="sr-only">to {name}</span>
        </button>
      )}
      <ErrorText id={`stream-${id}-e`} error={save.error} />
    </li>
  );
}
