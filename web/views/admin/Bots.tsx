// Bots: those of the organization (administration) and a person's own (Account).
import { useState } from 'preact/hooks';
import { store } from '../context.ts';
import { settingsApi } from '../settings/api.ts';
import { ErrorText, useSave } from '../settings/fields.tsx';
import { KeyText } from '../settings/Account.tsx';
import type { Bot } from '../../store/settings-admin.ts';

export function BotsSection() {
  const bots = [...store.admin.bots.value].sort((a, b) => Number(b.is_active) - Number(a.is_active) || a.full_name.localeCompare(b.full_name));
  return (
    <>
      <p class="setting-hint">Every bot of the organization. Bots are created from Personal settings › Account.</p>
      <BotList bots={bots} showOwner />
    </>
  );
}

export function BotList({ bots, showKeys, showOwner }: { bots: Bot[]; showKeys?: boolean; showOwner?: boolean }) {
  if (bots.length === 0) return <p class="setting-hint">No bots.</p>;
  return (
    <ul class="plain-list bots-list">
      {bots.map((b) => (
        <BotRow key={b.user_id} bot={b} showKey={showKeys === true} showOwner={showOwner === true} />
      ))}
    </ul>
  );
}

function BotRow({ bot: b, showKey, showOwner }: { bot: Bot; showKey: boolean; showOwner: boolean }) {
  const save = useSave();
  const [key, setKey] = useState<string | null>(null);
  return (
    <li>
      <div class="setting-line">
        <span class="grow">
          <strong>{b.full_name}</strong> <span class="setting-hint">{b.email}</span>
          {showOwner && b.owner_id && <span class="setting-hint"> · owner {store.users.name(b.owner_id)}</span>}
          {!b.is_active && <span class="badge">deactivated</span>}
        </span>
        {showKey && b.is_active && (
          <button type="button" onClick={() => setKey(key === null ? (b.api_key ?? '') : null)}>
            {key === null ? 'Show API key' : 'Hide API key'} <span class="sr-only">of {b.full_name}</span>
          </button>
        )}
        {b.is_active ? (
          <button type="button" disabled={save.busy} onClick={() => void save.run(() => settingsApi().deactivateBot(b.user_id))}>
            Deactivate <span class="sr-only">{b.full_name}</span>
          </button>
        ) : (
          <button type="button" disabled={save.busy} onClick={() => void save.run(() => settingsApi().reactivateBot(b.user_id))}>
            Reactivate <span class="sr-only">{b.full_name}</span>
          </button>
        )}
      </div>
      {key !== null && (
        <div class="setting-line">
          <KeyText label={`API key of ${b.full_name}`} value={key} />
          <button type="button" disabled={save.busy} onClick={() => void save.run(async () => setKey(await settingsApi().regenerateBotKey(b.user_id)))}>
            Generate new key
          </button>
        </div>
      )}
      <ErrorText id={`bot-${b.user_id}-e`} error={save.error} />
    </li>
  );
}
