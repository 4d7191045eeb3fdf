// Personal settings: email, password, API key, your bots, and logging out everywhere.
import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { client, store } from '../context.ts';
import { logoutEverywhere } from '../../api/client.ts';
import { settingsApi } from './api.ts';
import { ErrorText, Section, useSave } from './fields.tsx';
import { BotList } from '../admin/Bots.tsx';
import { ROLE } from '../../store/permissions.ts';

export function AccountSection() {
  const me = store.settings.me.value;
  const email = store.users.get(me.user_id)?.email ?? me.email;
  return (
    <>
      <Section title="Account">
        <p>
          Email: <strong>{email}</strong>
        </p>
      </Section>
      <PasswordForm />
      <ApiKey email={email} />
      <Section title="Your bots">
        <CreateBotForm />
        <BotList bots={store.admin.bots.value.filter((b) => b.owner_id === me.user_id)} showKeys />
      </Section>
      <LogOutEverywhere />
    </>
  );
}

/** Ends every session of this person (this browser's too), after a confirmation. */
function LogOutEverywhere() {
  const [confirm, setConfirm] = useState(false);
  const save = useSave();
  // The button pressed is replaced by the confirmation: the focus goes to its first button.
  const confirmRef = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (confirm) confirmRef.current?.focus();
  }, [confirm]);
  async function run() {
    await save.run(async () => {
      // The server first: if it refuses, this page stays as it is and says why.
      await logoutEverywhere();
      await client.stop();
      location.hash = '';
      location.reload();
    });
  }
  return (
    <Section title="Sessions">
      <div class="setting">
        <p class="setting-hint" id="logout-everywhere-hint">
          Log out of Parley in every browser and on every device where you are logged in, this one included. Each of them shows the login page at its next request. Your API key and your bots'
          keys are not sessions and keep working: generate a new API key above to stop programs that use yours.
        </p>
        {confirm ? (
          <div class="setting-line">
            <button type="button" class="danger" ref={confirmRef} disabled={save.busy} onClick={() => void run()} aria-describedby="logout-everywhere-hint">
              Log out of all sessions
            </button>
            <button type="button" onClick={() => setConfirm(false)}>
              Cancel
            </button>
          </div>
        ) : (
          <button type="button" class="danger-outline" onClick={() => setConfirm(true)} aria-describedby="logout-everywhere-hint">
            Log out everywhere
          </button>
        )}
        <ErrorText id="logout-everywhere-error" error={save.error} />
      </div>
    </Section>
  );
}

function PasswordForm() {
  const [oldPw, setOld] = useState('');
  const [newPw, setNew] = useState('');
  const save = useSave();
  const a = useId();
  const b = useId();
  async function submit(e: Event) {
    e.preventDefault();
    if (await save.run(() => settingsApi().changePassword(oldPw, newPw))) {
      setOld('');
      setNew('');
    }
  }
  return (
    <Section title="Password">
      <form class="setting" onSubmit={submit}>
        <div class="setting-line">
          <span class="field">
            <label for={a}>Old password</label>
            <input id={a} type="password" autocomplete="current-password" value={oldPw} onInput={(e) => setOld(e.currentTarget.value)} aria-describedby="password-error" />
          </span>
          <span class="field">
            <label for={b}>New password</label>
            <input id={b} type="password" autocomplete="new-password" value={newPw} onInput={(e) => setNew(e.currentTarget.value)} aria-describedby="password-error" />
          </span>
        </div>
        <button type="submit" disabled={save.busy || !oldPw || !newPw}>
          Change password
        </button>
        {save.done && !save.error && <span role="status"> Password changed.</span>}
        <ErrorText id="password-error" error={save.error} />
      </form>
    </Section>
  );
}

function ApiKey({ email }: { email: string }) {
  const [password, setPassword] = useState('');
  const [key, setKey] = useState<string | null>(null);
  const save = useSave();
  const id = useId();
  async function show(e: Event) {
    e.preventDefault();
    await save.run(async () => {
      setKey(await settingsApi().fetchApiKey(email, password));
      setPassword('');
    });
  }
  return (
    <Section title="API key">
      {key === null ? (
        <form class="setting" onSubmit={show}>
          <p class="setting-hint">Your API key lets programs act as you. Enter your password to see it.</p>
          <div class="setting-line">
            <span class="field">
              <label for={id}>Your password</label>
              <input id={id} type="password" autocomplete="current-password" value={password} onInput={(e) => setPassword(e.currentTarget.value)} aria-describedby="apikey-error" />
            </span>
            <button type="submit" disabled={!password || save.busy}>
              Show API key
            </button>
          </div>
          <ErrorText id="apikey-error" error={save.error} />
        </form>
      ) : (
        <div class="setting">
          <KeyText label="Your API key" value={key} />
          <div class="setting-line">
            <button type="button" disabled={save.busy} onClick={() => void save.run(async () => setKey(await settingsApi().regenerateApiKey()))}>
              Generate new API key
            </button>
            <button type="button" onClick={() => setKey(null)}>
              Hide
            </button>
          </div>
          <ErrorText id="apikey-error" error={save.error} />
        </div>
      )}
    </Section>
  );
}

export function KeyText({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <span class="field">
      <label for={id}>{label}</label>
      <input id={id} class="key" readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
    </span>
  );
}

const BOT_TYPES: [number, string][] = [
  [1, 'Generic bot'],
  [2, 'Incoming webhook'],
];

/** The kinds of bot the realm's bot_creation_policy lets the person add (1 everyone, 2 generic bots by administrators, 3 administrators). */
function allowedBotTypes(): [number, string][] {
  const role = store.users.get(store.me)?.role ?? ROLE.MEMBER;
  if (role <= ROLE.ADMIN) return BOT_TYPES;
  const policy = store.settings.realm.value.bot_creation_policy;
  if (role >= ROLE.GUEST || policy === 3) return [];
  return policy === 2 ? BOT_TYPES.filter(([t]) => t !== 1) : BOT_TYPES;
}

function CreateBotForm() {
  const types = allowedBotTypes();
  return types.length === 0 ? <p class="setting-hint">The organization lets only administrators add bots.</p> : <CreateBot types={types} />;
}

function CreateBot({ types }: { types: [number, string][] }) {
  const [name, setName] = useState('');
  const [short, setShort] = useState('');
  const [chosen, setType] = useState(types[0]![0]);
  const type = types.some(([t]) => t === chosen) ? chosen : types[0]![0];
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const save = useSave();
  const a = useId();
  const b = useId();
  const c = useId();
  async function submit(e: Event) {
    e.preventDefault();
    await save.run(async () => {
      const r = await settingsApi().createBot({ full_name: name, short_name: short, bot_type: type });
      setCreated({ name, key: r.api_key });
      setName('');
      setShort('');
    });
  }
  return (
    <form class="setting" onSubmit={submit} aria-label="Add a bot">
      <div class="setting-line">
        <span class="field">
          <label for={a}>Bot name</label>
          <input id={a} value={name} onInput={(e) => setName(e.currentTarget.value)} aria-describedby="bot-error" />
        </span>
        <span class="field">
          <label for={b}>Bot email prefix</label>
          <input id={b} value={short} onInput={(e) => setShort(e.currentTarget.value)} aria-describedby="bot-error" />
        </span>
        <span class="field">
          <label for={c}>Bot type</label>
          <select id={c} value={String(type)} onChange={(e) => setType(Number(e.currentTarget.value))}>
            {types.map(([v, l]) => (
              <option key={v} value={String(v)}>
                {l}
              </option>
            ))}
          </select>
        </span>
        <button type="submit" disabled={save.busy || !name || !short}>
          Create bot
        </button>
      </div>
      <ErrorText id="bot-error" error={save.error} />
      {created && (
        <div role="status" class="created">
          <KeyText label={`API key of ${created.name}`} value={created.key} />
        </div>
      )}
    </form>
  );
}
