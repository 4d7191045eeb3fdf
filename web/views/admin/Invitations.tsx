// Organization administration: reusable invite links, invitations by email, and the pending
// invitations (revoke, resend). The list is not in the register snapshot, so it is fetched
// here, and again whenever an `invites_changed` event arrives (the store counts them).
import { useEffect, useId, useState } from 'preact/hooks';
import { store } from '../context.ts';
import { settingsApi } from '../settings/api.ts';
import { ErrorText, focusPageAfterRemoval, Section, useSave } from '../settings/fields.tsx';
import { ApiError } from '../../api/http.ts';
import type { Invite, InviteParams } from '../../api/settings.ts';
import { mayInviteAs, ROLE, ROLE_LABELS } from '../../store/permissions.ts';

const EXPIRY: [string, string][] = [
  ['30', '30 minutes'],
  ['1440', '1 day'],
  ['14400', '10 days'],
  ['43200', '30 days'],
  ['never', 'Never expires'],
];

/** Fewest rights first: the default (Member) near the top. */
const ROLES = [...ROLE_LABELS].reverse();

const roleName = (r: number): string => ROLES.find(([v]) => v === r)?.[1] ?? `role ${r}`;

export function InvitationsSection() {
  const [invites, setInvites] = useState<Invite[] | null>(null);
  const [error, setError] = useState('');
  const version = store.admin.invitesVersion.value;
  useEffect(() => {
    let live = true;
    settingsApi()
      .invites()
      .then((list) => live && setInvites(list))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [version]);
  return (
    <>
      <InviteLink />
      <InviteByEmail />
      <Section title="Pending invitations">
        <ErrorText id="invites-load-error" error={error} />
        {invites === null ? <p class="setting-hint">Loading…</p> : <InviteList invites={invites} />}
      </Section>
    </>
  );
}

/** Role, expiry and streams: the choices both kinds of invitation share. */
function useOptions(prefix: string) {
  const [expiry, setExpiry] = useState('14400');
  const [role, setRole] = useState<number>(ROLE.MEMBER);
  const [streams, setStreams] = useState<Set<number>>(new Set());
  const ids = [useId(), useId()] as const;
  const params = (): InviteParams => ({
    invite_expires_in_minutes: expiry === 'never' ? null : Number(expiry),
    invite_as: role,
    stream_ids: [...streams],
    include_realm_default_subscriptions: true,
  });
  // Only the roles the server lets this person invite as (mayInviteAs).
  const myRole = store.users.get(store.me)?.role ?? ROLE.MEMBER;
  const all = [...store.streams.streams.value.values()].sort((a, b) => a.name.localeCompare(b.name));
  const defaults = new Set(store.admin.defaultStreams.value);
  const controls = (
    <>
      <div class="setting-line">
        <span class="field">
          <label for={ids[0]}>Expires</label>
          <select id={ids[0]} value={expiry} onChange={(e) => setExpiry(e.currentTarget.value)}>
            {EXPIRY.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </span>
        <span class="field">
          <label for={ids[1]}>Invite as</label>
          <select id={ids[1]} value={role} onChange={(e) => setRole(Number(e.currentTarget.value))}>
            {ROLES.filter(([v]) => mayInviteAs(myRole, v)).map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </span>
      </div>
      {all.length > 0 && (
        <fieldset class="invite-streams">
          <legend>Streams to join {defaults.size > 0 && <span class="setting-hint">(default streams are always included)</span>}</legend>
          {all.map((s) => (
            <label key={s.stream_id} class="checkbox">
              <input
                type="checkbox"
                name={`${prefix}-stream`}
                checked={streams.has(s.stream_id) || defaults.has(s.stream_id)}
                disabled={defaults.has(s.stream_id)}
                onChange={(e) => {
                  const next = new Set(streams);
                  if (e.currentTarget.checked) next.add(s.stream_id);
                  else next.delete(s.stream_id);
                  setStreams(next);
                }}
              />{' '}
              {s.name}
            </label>
          ))}
        </fieldset>
      )}
    </>
  );
  return { params, controls };
}

function InviteLink() {
  const opts = useOptions('link');
  const save = useSave();
  const [link, setLink] = useState('');
  const [copied, setCopied] = useState(false);
  const linkId = useId();
  async function submit(e: Event) {
    e.preventDefault();
    setCopied(false);
    await save.run(async () => setLink(await settingsApi().createInviteLink(opts.params())));
  }
  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      // Without clipboard permission the box stays selected for a manual copy.
      (document.getElementById(linkId) as HTMLInputElement | null)?.select();
    }
  }
  return (
    <Section title="Reusable invite link">
      <form class="setting" onSubmit={submit}>
        {opts.controls}
        <div class="setting-line">
          <button type="submit" class="primary" disabled={save.busy}>
            Create invite link
          </button>
        </div>
        <ErrorText id="invite-link-error" error={save.error} />
      </form>
      {link && (
        <div class="setting-line">
          <span class="field grow">
            <label for={linkId}>Invite link</label>
            <input id={linkId} readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
          </span>
          <button type="button" onClick={() => void copy()}>
            Copy link
          </button>
          <span role="status">{copied ? 'Copied.' : ''}</span>
        </div>
      )}
    </Section>
  );
}

function InviteByEmail() {
  const opts = useOptions('email');
  const save = useSave();
  const [emails, setEmails] = useState('');
  const [failures, setFailures] = useState<[string, string][]>([]);
  const id = useId();
  async function submit(e: Event) {
    e.preventDefault();
    const list = emails
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    setFailures([]);
    const ok = await save.run(async () => {
      try {
        await settingsApi().inviteByEmail({ ...opts.params(), invitee_emails: list.join(',') });
      } catch (err) {
        // INVITATION_FAILED names each refused address; the others may have been invited.
        if (err instanceof ApiError && Array.isArray(err.body.errors)) {
          setFailures((err.body.errors as unknown[][]).map((x) => [String(x[0]), String(x[1])]));
        }
        throw err;
      }
    });
    if (ok) setEmails('');
  }
  return (
    <Section title="Invite people by email">
      <form class="setting" onSubmit={submit}>
        <span class="field">
          <label for={id}>Email addresses</label>
          <textarea id={id} rows={3} value={emails} placeholder="one@example.com, two@example.com" onInput={(e) => setEmails(e.currentTarget.value)} aria-describedby="invite-email-error" />
        </span>
        {opts.controls}
        <div class="setting-line">
          <button type="submit" class="primary" disabled={!emails.trim() || save.busy}>
            Send invitations
          </button>
          {save.done && <span role="status">Invitations sent.</span>}
        </div>
        <ErrorText id="invite-email-error" error={save.error} />
        {failures.length > 0 && (
          <ul class="plain-list" aria-label="Addresses not invited">
            {failures.map(([email, msg]) => (
              <li key={email}>
                <span>
                  <strong>{email}</strong>: {msg}
                </span>
              </li>
            ))}
          </ul>
        )}
      </form>
    </Section>
  );
}

function InviteList({ invites }: { invites: Invite[] }) {
  if (invites.length === 0) return <p class="setting-hint">No pending invitations.</p>;
  const sorted = [...invites].sort((a, b) => b.invited - a.invited);
  return (
    <ul class="plain-list" aria-label="Pending invitations">
      {sorted.map((inv) => (
        <InviteRow key={`${inv.is_multiuse ? 'm' : 'e'}${inv.id}`} inv={inv} />
      ))}
    </ul>
  );
}

function InviteRow({ inv }: { inv: Invite }) {
  const save = useSave();
  const what = inv.is_multiuse ? 'Reusable link' : (inv.email ?? '');
  const expiry = inv.expiry_date === null ? 'never expires' : `expires ${new Date(inv.expiry_date * 1000).toLocaleString()}`;
  return (
    <li>
      <div class="setting-line">
        <span class="grow">
          <strong>{what}</strong> <span class="badge">{roleName(inv.invited_as)}</span>
          <span class="setting-hint">
            {' '}
            · invited by {store.users.name(inv.invited_by_user_id)} · {expiry}
          </span>
        </span>
        {!inv.is_multiuse && (
          <button type="button" disabled={save.busy} onClick={() => void save.run(() => settingsApi().resendInvite(inv.id))}>
            Resend <span class="sr-only">invitation to {what}</span>
          </button>
        )}
        <button type="button" disabled={save.busy} onClick={() => void save.run(() => settingsApi().revokeInvite(inv)).then((ok) => ok && focusPageAfterRemoval())}>
          Revoke <span class="sr-only">{inv.is_multiuse ? `reusable link ${inv.id}` : `invitation to ${what}`}</span>
        </button>
      </div>
      <ErrorText id={`invite-${inv.id}-e`} error={save.error} />
    </li>
  );
}
