// Organization administration: the users, with role, last activity and a filter; change a
// role or a name; deactivate and reactivate.
import { useId, useState } from 'preact/hooks';
import { store } from '../context.ts';
import { settingsApi } from '../settings/api.ts';
import { ConfirmLine, ErrorText, focusPageAfterRemoval, Select, TextSetting, useSave } from '../settings/fields.tsx';
import { isOwner } from '../settings/route.ts';
import type { User } from '../../store/types.ts';
import { ROLE, ROLE_LABELS as ROLES } from '../../store/permissions.ts';

export const roleName = (role: number): string => ROLES.find(([r]) => r === role)?.[1] ?? 'Member';

function lastActive(u: User): string {
  const status = store.users.status(u.user_id);
  if (status === 'active') return 'Active now';
  if (status === 'idle') return 'Idle';
  const p = store.users.presence.value.get(u.user_id);
  const t = Math.max(p?.active_timestamp ?? 0, p?.idle_timestamp ?? 0);
  if (!t) return 'Not active yet';
  const days = Math.floor((store.users.now.value - t) / 86400);
  if (days < 1) return 'Today';
  return days === 1 ? 'Yesterday' : `${days} days ago`;
}

export function UsersSection() {
  const [filter, setFilter] = useState('');
  const [show, setShow] = useState<'active' | 'deactivated'>('active');
  const [open, setOpen] = useState<number | null>(null);
  const filterId = useId();
  const showId = useId();
  const q = filter.trim().toLowerCase();
  const users = [...store.users.byId.value.values()]
    .filter((u) => !u.is_bot && u.is_active === (show === 'active'))
    .filter((u) => !q || u.full_name.toLowerCase().includes(q) || u.email.toLowerCase().includes(q) || roleName(u.role).toLowerCase().includes(q))
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <>
      <div class="setting-line filters">
        <span class="field grow">
          <label for={filterId}>Filter users</label>
          <input id={filterId} type="search" value={filter} placeholder="Name, email or role" onInput={(e) => setFilter(e.currentTarget.value)} />
        </span>
        <span class="field">
          <label for={showId}>Show</label>
          <select id={showId} value={show} onChange={(e) => setShow(e.currentTarget.value as 'active' | 'deactivated')}>
            <option value="active">Active users</option>
            <option value="deactivated">Deactivated users</option>
          </select>
        </span>
      </div>
      <table class="settings-table users-table">
        <caption class="sr-only">{show === 'active' ? 'Active users' : 'Deactivated users'}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col" class="wide-only">Email</th>
            <th scope="col">Role</th>
            <th scope="col" class="wide-only">Last active</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <UserRow key={u.user_id} user={u} open={open === u.user_id} onToggle={() => setOpen(open === u.user_id ? null : u.user_id)} />
          ))}
        </tbody>
      </table>
      {users.length === 0 && <p class="setting-hint">No users match.</p>}
      <p class="setting-hint">
        <a href="#organization/invitations">Invite people and see pending invitations</a>
      </p>
    </>
  );
}

function UserRow({ user: u, open, onToggle }: { user: User; open: boolean; onToggle: () => void }) {
  const save = useSave();
  const me = u.user_id === store.me;
  return (
    <>
      <tr>
        <th scope="row">
          {u.full_name}
          {me && <span class="setting-hint"> (you)</span>}
          {u.is_active && (
            <span class="narrow-only setting-hint">
              {lastActive(u)}
            </span>
          )}
        </th>
        <td class="wide-only">{u.email}</td>
        <td>{roleName(u.role)}</td>
        <td class="wide-only">{u.is_active ? lastActive(u) : 'Deactivated'}</td>
        <td class="row-actions">
          {u.is_active ? (
            <button type="button" aria-expanded={open} onClick={onToggle}>
              Edit <span class="sr-only">{u.full_name}</span>
            </button>
          ) : (
            <button type="button" disabled={save.busy} onClick={() => void save.run(() => settingsApi().reactivateUser(u.user_id))}>
              Reactivate <span class="sr-only">{u.full_name}</span>
            </button>
          )}
          <ErrorText id={`user-${u.user_id}-e`} error={save.error} />
        </td>
      </tr>
      {open && u.is_active && (
        <tr class="edit-row">
          <td colSpan={5}>
            <EditUser user={u} />
          </td>
        </tr>
      )}
    </>
  );
}

function EditUser({ user: u }: { user: User }) {
  const save = useSave();
  const [confirm, setConfirm] = useState(false);
  return (
    <div class="edit-box" role="group" aria-label={`Edit ${u.full_name}`}>
      <TextSetting label={`Name of ${u.full_name}`} value={u.full_name} onSave={(v) => settingsApi().updateUser(u.user_id, { full_name: v })} />
      <RoleSetting user={u} />
      {confirm ? (
        <ConfirmLine
          question={u.user_id === store.me ? 'Deactivate your own account? You are logged out at once, and only an administrator can reactivate it.' : `Deactivate ${u.full_name}? They are logged out at once.`}
          confirm="Confirm deactivation"
          busy={save.busy}
          onConfirm={() => void save.run(() => settingsApi().deactivateUser(u.user_id))}
          onCancel={() => setConfirm(false)}
        />
      ) : (
        <button type="button" class="danger-outline" onClick={() => setConfirm(true)}>
          Deactivate {u.full_name}
        </button>
      )}
      <ErrorText id={`deactivate-${u.user_id}-e`} error={save.error} />
    </div>
  );
}

/**
 * A person's role. Lowering one's own below administrator closes these pages to oneself, and only
 * another administrator can undo it: the new role shows while that is asked first.
 */
function RoleSetting({ user: u }: { user: User }) {
  const owner = isOwner();
  const roles = ROLES.filter(([r]) => owner || r !== ROLE.OWNER);
  const [asked, setAsked] = useState<number | null>(null);
  const save = useSave();
  const losesAdmin = (role: number) => u.user_id === store.me && u.role <= ROLE.ADMIN && role > ROLE.ADMIN;
  return (
    <>
      <Select
        label={`Role of ${u.full_name}`}
        value={asked ?? u.role}
        options={roles.map(([value, label]) => ({ value, label }))}
        disabled={(u.role === ROLE.OWNER && !owner) || save.busy}
        onSave={async (v) => {
          if (losesAdmin(Number(v))) setAsked(Number(v));
          else {
            setAsked(null);
            await settingsApi().updateUser(u.user_id, { role: v });
          }
        }}
      />
      {(asked !== null || save.error) && (
        <div class="role-confirm">
          {asked !== null && (
            <ConfirmLine
              question={`Change your own role to ${roleName(asked)}? You lose access to the organization's administration pages at once, and only another administrator can give it back.`}
              confirm="Confirm role change"
              busy={save.busy}
              onConfirm={() =>
                void save.run(() => settingsApi().updateUser(u.user_id, { role: asked })).then((ok) => {
                  if (ok) focusPageAfterRemoval();
                  else setAsked(null);
                })
              }
              onCancel={() => setAsked(null)}
            />
          )}
          <ErrorText id={`role-${u.user_id}-e`} error={save.error} />
        </div>
      )}
    </>
  );
}
