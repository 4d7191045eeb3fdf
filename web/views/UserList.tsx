// The right sidebar: the organization's people with presence, and a filter. The list shows at
// most SHOWN people at once, so a 5,000-person organization stays light.
import { useState } from 'preact/hooks';
import { store } from './context.ts';
import { dialog, drawer } from './state.ts';
import { Avatar } from './Header.tsx';
import type { PresenceStatus } from '../store/users.ts';
import { canInvite } from './settings/route.ts';
import { statusText } from './UserCard.tsx';

const SHOWN = 200;
const ORDER: Record<PresenceStatus, number> = { active: 0, idle: 1, offline: 2 };

export function UserList() {
  const [filter, setFilter] = useState('');
  const q = filter.trim().toLowerCase();
  void store.users.presence.value;
  void store.users.now.value;
  const people = store.users.active.value
    .filter((u) => !u.is_bot && (!q || u.full_name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q)))
    .map((u) => ({ u, status: store.users.status(u.user_id) }))
    .sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.u.full_name.localeCompare(b.u.full_name));
  return (
    <aside class="sidebar right" aria-label="Users">
      <input class="filter" type="search" aria-label="Filter users" placeholder="Filter users" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      <ul class="users">
        {people.slice(0, SHOWN).map(({ u, status }) => (
          <li key={u.user_id}>
            {/* Their profile, as a message's sender opens it; a direct message is one click on from there. */}
            <button type="button" class="user" aria-haspopup="dialog" onClick={() => (dialog.value = { kind: 'user', userId: u.user_id })}>
              <span class="presence-wrap">
                <Avatar userId={u.user_id} size={24} />
                <span class={`presence ${status}`} aria-hidden="true" />
              </span>
              <span class="user-text">
                <span class="label">
                  {u.full_name}
                  {/* Which one is you (the list held your name like any other). */}
                  {u.user_id === store.me && <span class="muted-text"> (you)</span>}
                </span>
                {statusText(u.user_id) && <span class="status-text">{statusText(u.user_id)}</span>}
              </span>
              <span class="sr-only">({status})</span>
            </button>
          </li>
        ))}
        {people.length > SHOWN && <li class="more">{people.length - SHOWN} more: filter to find them.</li>}
        {people.length === 0 && q && <li class="more">Nobody matches.</li>}
      </ul>
      {/* Where a new organization's owner, alone in the list, looks for the others. */}
      {canInvite() && (
        <a class="invite-people" href="#organization/invitations" onClick={() => (drawer.value = null)}>
          Invite people
        </a>
      )}
    </aside>
  );
}
