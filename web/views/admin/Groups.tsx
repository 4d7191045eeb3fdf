// Organization administration: user groups, their members and nested groups. Members see the
// page too, and change what the organization's policy lets them.
import { useId, useState } from 'preact/hooks';
import { store } from '../context.ts';
import { settingsApi } from '../settings/api.ts';
import { ConfirmLine, ErrorText, Section, TextSetting, focusPageAfterRemoval, useSave } from '../settings/fields.tsx';
import type { UserGroup } from '../../store/settings-admin.ts';
import { POLICY, ROLE } from '../../store/permissions.ts';
import { canEditGroup, canManageGroups, myRole } from '../settings/route.ts';

/** System groups (`role:members`, ...) have names the reference shows in words. */
const groupLabel = (g: UserGroup): string => (g.is_system_group ? g.description || g.name : g.name);

/** Who the realm's user_group_edit_policy lets create and change groups, in words. */
const EDITORS: Record<number, string> = {
  [POLICY.MEMBERS]: 'members',
  [POLICY.ADMINS]: 'administrators',
  [POLICY.FULL_MEMBERS]: 'full members',
  [POLICY.MODERATORS]: 'moderators and administrators',
};

/**
 * The organization's groups. Everyone but guests sees them; the realm's user_group_edit_policy
 * decides who creates them, and who may change one (its members, and moderators and above).
 */
export function GroupsSection() {
  const [open, setOpen] = useState<number | null>(null);
  const groups = [...store.admin.groups.value.values()].filter((g) => !g.is_system_group && !g.deactivated).sort((a, b) => a.name.localeCompare(b.name));
  const manage = canManageGroups();
  const editors = EDITORS[Number(store.settings.realm.value.user_group_edit_policy ?? POLICY.MEMBERS)] ?? 'administrators';
  return (
    <>
      {manage ? <CreateGroup /> : <p class="setting-hint">Only {editors} can create and change groups in this organization.</p>}
      <Section title="Groups">
        {groups.length === 0 && <p class="setting-hint">No user groups yet.</p>}
        {manage && myRole() > ROLE.MODERATOR && groups.length > 0 && <p class="setting-hint">You can change the groups you are a member of.</p>}
        <ul class="plain-list">
          {groups.map((g) => {
            const editable = canEditGroup(g.id);
            return (
              <li key={g.id}>
                <div class="setting-line group-row">
                  <span class="grow">
                    <strong>@{g.name}</strong> <span class="setting-hint">
                      {g.members.length} {g.members.length === 1 ? 'member' : 'members'}
                      {g.description ? ` · ${g.description}` : ''}
                    </span>
                  </span>
                  <button type="button" aria-expanded={open === g.id} onClick={() => setOpen(open === g.id ? null : g.id)}>
                    {editable ? 'Edit' : 'Members'} <span class="sr-only">{editable ? `group ${g.name}` : `of ${g.name}`}</span>
                  </button>
                </div>
                {open === g.id && (editable ? <EditGroup group={g} /> : <GroupMembers group={g} />)}
              </li>
            );
          })}
        </ul>
      </Section>
    </>
  );
}

/** A group's members and nested groups, for one who may not change it. */
function GroupMembers({ group: g }: { group: UserGroup }) {
  const all = store.admin.groups.value;
  return (
    <div class="edit-box" role="group" aria-label={`Members of ${g.name}`}>
      {g.members.length === 0 ? (
        <p class="setting-hint">No members of its own.</p>
      ) : (
        <ul class="chips" aria-label={`People in ${g.name}`}>
          {g.members.map((u) => (
            <li key={u} class="chip-plain">
              {store.users.name(u)}
            </li>
          ))}
        </ul>
      )}
      {g.direct_subgroup_ids.length > 0 && (
        <>
          <h4>Groups within this group</h4>
          <ul class="chips" aria-label={`Groups in ${g.name}`}>
            {g.direct_subgroup_ids.map((id) => {
              const sub = all.get(id);
              return (
                <li key={id} class="chip-plain">
                  {sub ? groupLabel(sub) : `group ${id}`}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </div>
  );
}

function CreateGroup() {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const save = useSave();
  const a = useId();
  const b = useId();
  async function submit(e: Event) {
    e.preventDefault();
    if (await save.run(() => settingsApi().createGroup(name.trim(), description, [store.me]))) {
      setName('');
      setDescription('');
    }
  }
  return (
    <Section title="Create a group">
      <form class="setting" onSubmit={submit}>
        <div class="setting-line">
          <span class="field">
            <label for={a}>Group name</label>
            <input id={a} value={name} onInput={(e) => setName(e.currentTarget.value)} aria-describedby="group-error" />
          </span>
          <span class="field grow">
            <label for={b}>Group description</label>
            <input id={b} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
          </span>
          <button type="submit" class="primary" disabled={!name.trim() || save.busy}>
            Create group
          </button>
        </div>
        <ErrorText id="group-error" error={save.error} />
      </form>
    </Section>
  );
}

function EditGroup({ group: g }: { group: UserGroup }) {
  const save = useSave();
  // This page cannot bring a deactivated group back: asked once more first.
  const [confirm, setConfirm] = useState(false);
  const memberId = useId();
  const subId = useId();
  const all = store.admin.groups.value;
  const users = store.users.active.value.filter((u) => !g.members.includes(u.user_id)).sort((a, b) => a.full_name.localeCompare(b.full_name));
  // "Everyone on the Internet" and "Nobody" are settings' values, not sets of people to nest.
  const candidates = [...all.values()].filter((o) => !o.deactivated && o.id !== g.id && !g.direct_subgroup_ids.includes(o.id) && o.name !== 'role:internet' && o.name !== 'role:nobody');
  return (
    <div class="edit-box" role="group" aria-label={`Edit group ${g.name}`}>
      <TextSetting label="Name" value={g.name} onSave={(v) => settingsApi().updateGroup(g.id, { name: v })} />
      <TextSetting label="Description" value={g.description} onSave={(v) => settingsApi().updateGroup(g.id, { description: v })} />
      <h4>Members</h4>
      <ul class="chips">
        {g.members.map((u) => (
          <li key={u}>
            {store.users.name(u)}{' '}
            <button type="button" class="link-button" aria-label={`Remove ${store.users.name(u)} from ${g.name}`} onClick={() => void save.run(() => settingsApi().groupMembers(g.id, [], [u]))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <label for={memberId}>Add a member</label>{' '}
      <select
        id={memberId}
        value=""
        onChange={(e) => {
          const u = Number(e.currentTarget.value);
          e.currentTarget.value = '';
          if (u) void save.run(() => settingsApi().groupMembers(g.id, [u], []));
        }}
      >
        <option value="">Choose a person…</option>
        {users.map((u) => (
          <option key={u.user_id} value={u.user_id}>
            {u.full_name}
          </option>
        ))}
      </select>
      <h4>Groups within this group</h4>
      <ul class="chips">
        {g.direct_subgroup_ids.map((id) => {
          const sub = all.get(id);
          const label = sub ? groupLabel(sub) : `group ${id}`;
          return (
            <li key={id}>
              {label}{' '}
              <button type="button" class="link-button" aria-label={`Remove group ${label} from ${g.name}`} onClick={() => void save.run(() => settingsApi().groupSubgroups(g.id, [], [id]))}>
                ×
              </button>
            </li>
          );
        })}
      </ul>
      <label for={subId}>Add a group</label>{' '}
      <select
        id={subId}
        value=""
        onChange={(e) => {
          const id = Number(e.currentTarget.value);
          e.currentTarget.value = '';
          if (id) void save.run(() => settingsApi().groupSubgroups(g.id, [id], []));
        }}
      >
        <option value="">Choose a group…</option>
        {candidates.map((o) => (
          <option key={o.id} value={o.id}>
            {groupLabel(o)}
          </option>
        ))}
      </select>
      {confirm ? (
        <ConfirmLine
          question={`Deactivate @${g.name}? It can no longer be mentioned or given permissions.`}
          confirm="Confirm deactivation"
          busy={save.busy}
          onConfirm={() => void save.run(() => settingsApi().deactivateGroup(g.id)).then((ok) => ok && focusPageAfterRemoval())}
          onCancel={() => setConfirm(false)}
        />
      ) : (
        <div class="setting-line">
          <button type="button" class="danger-outline" onClick={() => setConfirm(true)}>
            Deactivate group
          </button>
        </div>
      )}
      <ErrorText id={`group-${g.id}-e`} error={save.error} />
    </div>
  );
}
