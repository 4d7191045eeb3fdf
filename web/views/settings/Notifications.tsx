// Personal settings: notifications, per stream and global; alert words; muted topics and users.
import { useId, useState } from 'preact/hooks';
import { store } from '../context.ts';
import { settingsApi } from './api.ts';
import { ErrorText, Section, Toggle, UserSelect, UserToggle, useSave } from './fields.tsx';
import type { Subscription } from '../../store/types.ts';
import { playNotificationSound } from '../../lib/notify.ts';

const STREAM_COLUMNS: [keyof Subscription | 'email_notifications' | 'push_notifications', string, string][] = [
  ['desktop_notifications', 'Desktop', 'enable_stream_desktop_notifications'],
  ['audible_notifications', 'Sound', 'enable_stream_audible_notifications'],
  ['email_notifications', 'Email', 'enable_stream_email_notifications'],
  ['push_notifications', 'Mobile', 'enable_stream_push_notifications'],
];

/** The API's sound names; its default keeps the name the reference gave it, shown as "Default". */
const SOUNDS = ['zulip', 'chime', 'ding', 'heart', 'ping', 'chirp', 'done', 'xylophone', 'none'];
const soundLabel = (s: string): string => (s === 'zulip' ? 'Default' : s === 'none' ? 'None' : s[0]!.toUpperCase() + s.slice(1));

export function NotificationsSection() {
  return (
    <>
      <Section title="Direct messages and mentions">
        <UserToggle prop="enable_desktop_notifications" label="Desktop notifications" />
        <UserToggle prop="enable_sounds" label="Sound" />
        <UserToggle prop="enable_offline_email_notifications" label="Email notifications when away" />
        <UserToggle prop="enable_offline_push_notifications" label="Mobile notifications" />
        <UserToggle prop="pm_content_in_desktop_notifications" label="Show message content in desktop notifications" />
        <UserToggle prop="wildcard_mentions_notify" label="Notify for @all and @everyone mentions" />
        <UserSelect prop="notification_sound" label="Notification sound" options={SOUNDS.map((s) => ({ value: s, label: soundLabel(s) }))} />
        <button type="button" onClick={() => playNotificationSound(String(store.settings.user.value.notification_sound ?? 'zulip'))}>
          Play the sound
        </button>
      </Section>
      <Section title="Streams">
        <div class="table-scroll">
          <StreamTable />
        </div>
      </Section>
      <Section title="Email">
        <UserToggle prop="message_content_in_email_notifications" label="Include message content in emails" />
        <UserToggle prop="enable_digest_emails" label="Send digest emails when I am away" />
        <UserToggle prop="enable_login_emails" label="Send an email at every new login" />
      </Section>
      <AlertWords />
      <MutedTopics />
      <MutedUsers />
    </>
  );
}

function StreamTable() {
  const user = store.settings.user.value;
  const subs = store.streams.sorted.value;
  return (
    <table class="settings-table">
      <caption class="sr-only">Notifications per stream</caption>
      <thead>
        <tr>
          <th scope="col">Stream</th>
          {STREAM_COLUMNS.map(([, label]) => (
            <th scope="col" key={label}>
              {label}
            </th>
          ))}
          <th scope="col">Muted</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">All streams (default)</th>
          {STREAM_COLUMNS.map(([, label, global]) => (
            <td key={label}>
              <CheckCell label={`${label} notifications for all streams`} value={user[global] === true} onSave={(v) => settingsApi().updateSettings({ [global]: v })} />
            </td>
          ))}
          <td />
        </tr>
        {subs.map((s) => (
          <tr key={s.stream_id}>
            <th scope="row">
              {/* A box of its own: the colour stays beside the name when a narrow column wraps it. */}
              <span class="stream-name-cell">
                <span class="stream-dot" style={{ background: s.color }} aria-hidden="true" />
                <span>#{s.name}</span>
              </span>
            </th>
            {STREAM_COLUMNS.map(([prop, label, global]) => {
              const own = (s as unknown as Record<string, unknown>)[prop];
              return (
                <td key={label}>
                  <CheckCell label={`${label} notifications for #${s.name}`} value={typeof own === 'boolean' ? own : user[global] === true} onSave={(v) => settingsApi().setSubscriptionProperty(s.stream_id, prop, v)} />
                </td>
              );
            })}
            <td>
              <CheckCell label={`Mute #${s.name}`} value={s.is_muted} onSave={(v) => settingsApi().setSubscriptionProperty(s.stream_id, 'is_muted', v)} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A checkbox in a table: its name is given (the column and row), its error follows it. */
function CheckCell({ label, value, onSave }: { label: string; value: boolean; onSave: (v: boolean) => Promise<unknown> }) {
  return (
    <span class="cell">
      <Toggle label={label} value={value} onSave={onSave} />
    </span>
  );
}

function AlertWords() {
  const words = store.settings.alertWords.value;
  const [word, setWord] = useState('');
  const save = useSave();
  const id = useId();
  async function add(e: Event) {
    e.preventDefault();
    if (await save.run(() => settingsApi().addAlertWords([word.trim()]))) setWord('');
  }
  return (
    <Section title="Alert words">
      <p class="setting-hint">You are notified of messages that contain these words, as for mentions.</p>
      <ul class="plain-list">
        {words.map((w) => (
          <li key={w}>
            <span>{w}</span>
            <button type="button" onClick={() => void save.run(() => settingsApi().removeAlertWords([w]))}>
              Remove <span class="sr-only">alert word {w}</span>
            </button>
          </li>
        ))}
      </ul>
      <form class="setting" onSubmit={add}>
        <div class="setting-line">
          <span class="field">
            <label for={id}>New alert word</label>
            <input id={id} value={word} onInput={(e) => setWord(e.currentTarget.value)} aria-describedby={`${id}-e`} />
          </span>
          <button type="submit" disabled={!word.trim() || save.busy}>
            Add alert word
          </button>
        </div>
        <ErrorText id={`${id}-e`} error={save.error} />
      </form>
    </Section>
  );
}

function MutedTopics() {
  const save = useSave();
  const [undo, setUndo] = useState<{ streamId: number; topic: string } | null>(null);
  const muted = [...store.streams.userTopics.value.entries()].filter(([, policy]) => policy === 1);
  // The key is `<stream id>\u0000<topic lower-cased>`; the name shown is from the known topics.
  const rows = muted.map(([key]) => {
    const i = key.indexOf('\u0000');
    const streamId = Number(key.slice(0, i));
    const lower = key.slice(i + 1);
    const topic = store.streams.topics.value.get(streamId)?.find((t) => t.name.toLowerCase() === lower)?.name ?? lower;
    return { key, streamId, topic };
  });
  return (
    <Section title="Muted topics">
      {rows.length === 0 ? (
        <p class="setting-hint">No muted topics.</p>
      ) : (
        <ul class="plain-list">
          {rows.map((r) => (
            <li key={r.key}>
              <span>
                #{store.streams.name(r.streamId)} › {r.topic}
              </span>
              <button
                type="button"
                onClick={() =>
                  void save.run(async () => {
                    await settingsApi().setTopicPolicy(r.streamId, r.topic, 0);
                    setUndo({ streamId: r.streamId, topic: r.topic });
                  })
                }
              >
                Unmute <span class="sr-only">topic {r.topic}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {undo !== null && !rows.some((r) => r.streamId === undo.streamId && r.topic.toLowerCase() === undo.topic.toLowerCase()) && (
        <p role="status">
          #{store.streams.name(undo.streamId)} › {undo.topic} is no longer muted.{' '}
          <button type="button" class="link-button" onClick={() => void save.run(async () => (await settingsApi().setTopicPolicy(undo.streamId, undo.topic, 1), setUndo(null)))}>
            Undo
          </button>
        </p>
      )}
      <ErrorText id="muted-topics-error" error={save.error} />
    </Section>
  );
}

function MutedUsers() {
  const save = useSave();
  const [undo, setUndo] = useState<number | null>(null);
  const muted = store.admin.mutedUsers.value;
  return (
    <Section title="Muted users">
      {muted.length === 0 ? (
        <p class="setting-hint">No muted users.</p>
      ) : (
        <ul class="plain-list">
          {muted.map((m) => (
            <li key={m.id}>
              <span>{store.users.name(m.id)}</span>
              <button
                type="button"
                onClick={() =>
                  void save.run(async () => {
                    await settingsApi().muteUser(m.id, false);
                    setUndo(m.id);
                  })
                }
              >
                Unmute <span class="sr-only">{store.users.name(m.id)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {undo !== null && !muted.some((m) => m.id === undo) && (
        <p role="status">
          {store.users.name(undo)} is no longer muted.{' '}
          <button type="button" class="link-button" onClick={() => void save.run(async () => (await settingsApi().muteUser(undo, true), setUndo(null)))}>
            Undo
          </button>
        </p>
      )}
      <ErrorText id="muted-users-error" error={save.error} />
    </Section>
  );
}
