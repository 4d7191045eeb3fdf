// Organization administration: who may join and how. Invitations required or open sign-up,
// the email domains of open sign-up (and of the restriction to them), disposable addresses, and
// the authentication methods the server offers. Owners change these; administrators see them.
import { useId, useState } from 'preact/hooks';
import { store } from '../context.ts';
import { settingsApi } from '../settings/api.ts';
import { ErrorText, RealmSelect, RealmToggle, Section, Toggle, useSave, type Option } from '../settings/fields.tsx';
import { isOwner } from '../settings/route.ts';

/** The reference's names of authentication methods, as people know them. */
const METHOD_NAMES: Record<string, string> = {
  Email: 'Email and password',
  Dev: 'Development login',
  LDAP: 'LDAP',
  GitHub: 'GitHub',
  Google: 'Google',
  SAML: 'SAML',
};

export function JoiningSettings({ inviteOptions }: { inviteOptions: Option[] }) {
  const realm = store.settings.realm.value;
  const owner = isOwner();
  return (
    <>
      <Section title="Joining the organization">
        {!owner && <p class="setting-hint">Only owners can change these.</p>}
        <RealmToggle prop="invite_required" label="Invitations are required to join" disabled={!owner} />
        <RealmSelect prop="invite_to_realm_policy" label="Who can invite people" options={inviteOptions} disabled={!owner} />
        <RealmSelect prop="waiting_period_threshold" label="New members become full members after" options={WAITING} disabled={!owner} />
        <RealmToggle prop="emails_restricted_to_domains" label="Only addresses at the organization's email domains may join" disabled={!owner} />
        <RealmToggle prop="disallow_disposable_email_addresses" label="Refuse disposable email addresses" disabled={!owner || realm.emails_restricted_to_domains === true} />
        <Domains owner={owner} />
      </Section>
      <Authentication />
    </>
  );
}

const WAITING: Option[] = [
  [0, 'Right away'],
  [3, '3 days'],
  [7, '1 week'],
  [30, '30 days'],
  [90, '90 days'],
].map(([value, label]) => ({ value: value!, label: String(label) }));

/** The organization's email domains: listed, added (with or without subdomains), changed and removed. */
function Domains({ owner }: { owner: boolean }) {
  const domains = store.admin.realmDomains.value;
  const realm = store.settings.realm.value;
  const [domain, setDomain] = useState('');
  const [subdomains, setSubdomains] = useState(false);
  const add = useSave();
  const remove = useSave();
  const domainId = useId();
  const subId = useId();
  async function submit(e: Event) {
    e.preventDefault();
    if (await add.run(() => settingsApi().addRealmDomain(domain.trim(), subdomains))) {
      setDomain('');
      setSubdomains(false);
    }
  }
  const open = realm.invite_required === false;
  return (
    <div class="setting domains">
      <h4>Email domains</h4>
      <p class="setting-hint">
        {open ? 'Anyone with an address at these domains can sign up without an invitation.' : 'With invitations not required, anyone with an address at these domains could sign up.'}
        {realm.emails_restricted_to_domains === true && ' Invited people need an address at one of them too.'}
      </p>
      {domains.length === 0 ? (
        <p class="setting-hint">No email domains.</p>
      ) : (
        <ul class="plain-list" aria-label="Email domains">
          {domains.map((d) => (
            <li key={d.domain}>
              <span class="grow">
                <strong>{d.domain}</strong>
              </span>
              <Toggle label={`Subdomains of ${d.domain} too`} value={d.allow_subdomains} disabled={!owner} onSave={(v) => settingsApi().changeRealmDomain(d.domain, v)} />
              <button type="button" disabled={!owner || remove.busy} onClick={() => void remove.run(() => settingsApi().removeRealmDomain(d.domain))}>
                Remove <span class="sr-only">domain {d.domain}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <ErrorText id="domain-remove-error" error={remove.error} />
      {owner && (
        <form onSubmit={submit} aria-label="Add an email domain">
          <div class="setting-line">
            <span class="field">
              <label for={domainId}>New email domain</label>
              <input id={domainId} value={domain} placeholder="example.com" onInput={(e) => setDomain(e.currentTarget.value)} aria-describedby="domain-add-error" />
            </span>
            <span class="toggle">
              <input id={subId} type="checkbox" checked={subdomains} onChange={(e) => setSubdomains(e.currentTarget.checked)} />
              <label for={subId}>Subdomains too</label>
            </span>
            <button type="submit" disabled={!domain.trim() || add.busy}>
              Add domain
            </button>
          </div>
          <ErrorText id="domain-add-error" error={add.error} />
        </form>
      )}
    </div>
  );
}

/** The methods of logging in: this server offers email and password; the others are shown as not available. */
function Authentication() {
  const methods = (store.settings.realm.value.authentication_methods ?? { Email: true }) as Record<string, boolean>;
  return (
    <Section title="Authentication methods">
      <ul class="plain-list" aria-label="Authentication methods">
        {Object.entries(methods).map(([name, on]) => (
          <li key={name}>
            <span class="grow">{METHOD_NAMES[name] ?? name}</span>
            <span class={on ? 'badge' : 'setting-hint'}>{on ? 'On' : 'Not available on this server'}</span>
          </li>
        ))}
      </ul>
      <p class="setting-hint">People log in with their email address and password, and reset a forgotten password by email.</p>
    </Section>
  );
}
