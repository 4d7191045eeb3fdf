// Personal settings: every stream one may join, subscribed to or left here, and a new stream
// created when the organization's policies allow it (the form follows the policies live).
import { store } from '../context.ts';
import { settingsApi } from './api.ts';
import { ErrorText, Section, useSave } from './fields.tsx';
import { allStreams, CreateStream } from '../admin/Streams.tsx';
import { policyAllows, ROLE } from '../../store/permissions.ts';
import { hashFor } from '../nav.ts';

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
            <StreamRow key={s.stream_id} id={s.stream_id} name={s.name} description={s.description} priv={s.invite_only} subscribed={subscribed.has(s.stream_id)} />
          ))}
        </ul>
      </Section>
    </>
  );
}

function StreamRow({ id, name, description, priv, subscribed }: { id: number; name: string; description: string; priv: boolean; subscribed: boolean }) {
  const save = useSave();
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
      {subscribed ? (
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
