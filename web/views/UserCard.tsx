// A person's profile: opened from a message's sender (name or avatar), or from the user list.
// What the organization knows of them (role, email, when they joined, their local time, the
// custom profile fields they filled in) and the ways to reach them: a direct message, or the
// messages they sent.
import { store } from './context.ts';
import { compose, composeFocus, dialog, drawer, errorText, showToast } from './state.ts';
import { go } from './nav.ts';
import { Avatar } from './Header.tsx';
import { locale } from './Message.tsx';
import { formatTime, lastActiveText } from '../lib/time.ts';
import { ROLE_LABELS } from '../store/permissions.ts';
import { settingsApi } from './settings/api.ts';
import { fieldChoices, fieldUserIds, type ProfileField } from '../store/settings-admin.ts';

/** The person's own status line (`user_status`): away, and what they are up to. */
export function statusText(userId: number): string {
  const s = store.admin.statuses.value.get(userId);
  return [s?.away ? 'Away' : '', s?.status_text ?? ''].filter(Boolean).join(' · ');
}

/** Opens the direct messages with a person, compose addressed to them. */
export function messagePerson(userId: number): void {
  drawer.value = null;
  go([{ operator: 'dm', operand: [userId] }]);
  compose.value = { type: 'private', to: [userId], content: '' };
  composeFocus.value = 'message';
}

/** A profile field's value as words: a choice's text, people's names, or the text as entered. */
function fieldText(f: ProfileField, value: string): string {
  if (f.type === 3) return fieldChoices(f).find((c) => c.value === value)?.label ?? value;
  if (f.type === 6) return fieldUserIds(value).map((id) => store.users.name(id)).join(', ');
  return value;
}

export function UserCard({ userId }: { userId: number }) {
  const user = store.users.get(userId);
  if (!user) return null;
  const me = userId === store.me;
  const role = user.is_bot ? 'Bot' : (ROLE_LABELS.find(([r]) => r === user.role)?.[1] ?? 'Member');
  const twentyFour = store.settings.user.value.twenty_four_hour_time === true;
  const values = store.admin.profileData.value.get(userId) ?? {};
  const fields = store.admin.profileFields.value.map((f) => ({ f, text: fieldText(f, values[String(f.id)]?.value ?? '') })).filter((x) => x.text);
  const rows: [string, string][] = [
    ['Role', role],
    ...(user.bot_owner_id ? [['Owner', store.users.name(user.bot_owner_id)] as [string, string]] : []),
    ['Email', user.email],
    ...(user.date_joined ? [['Joined', new Date(user.date_joined).toLocaleDateString(locale(), { dateStyle: 'long' })] as [string, string]] : []),
    ...(user.timezone ? [['Local time', formatTime(store.users.now.value, { twentyFourHour: twentyFour, locale: locale(), timeZone: user.timezone })] as [string, string]] : []),
    ...fields.map(({ f, text }) => [f.name, text] as [string, string]),
  ];
  // A bot has no presence: it showed as "Never active".
  const presence = !user.is_active ? 'Deactivated' : user.is_bot ? '' : lastActiveText(store.users.presence.value.get(userId), store.users.now.value, locale());
  const close = () => (dialog.value = null);
  const muted = store.admin.isMuted(userId);
  return (
    <div class="user-card">
      <div class="user-card-head">
        <Avatar userId={userId} size={64} />
        <div>
          {presence && <p class="user-card-presence">{presence}</p>}
          {statusText(userId) && <p class="user-card-status">{statusText(userId)}</p>}
        </div>
      </div>
      <dl class="user-card-fields">
        {rows.map(([name, text]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd>{text}</dd>
          </div>
        ))}
      </dl>
      <div class="row end">
        <button type="button" onClick={close}>
          Close
        </button>
        {!me && (
          <button
            type="button"
            onClick={() =>
              void settingsApi()
                .muteUser(userId, !muted)
                .catch((e: unknown) => showToast(errorText(e), true))
            }
          >
            {muted ? 'Unmute' : 'Mute'} <span class="sr-only">{user.full_name}</span>
          </button>
        )}
        <button
          type="button"
          data-autofocus={user.is_active ? undefined : true}
          onClick={() => {
            close();
            go([{ operator: 'sender', operand: userId }]);
          }}
        >
          View messages
        </button>
        {user.is_active && (
          <button
            type="button"
            class="primary"
            data-autofocus
            onClick={() => {
              close();
              messagePerson(userId);
            }}
          >
            {me ? 'Message yourself' : 'Send a direct message'}
          </button>
        )}
      </div>
    </div>
  );
}
