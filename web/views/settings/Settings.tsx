// The settings overlay: a list of sections and the open one, over the narrow the person was
// in. Escape or "Close" goes back to that narrow. On a phone the list sits above the page.
import { useLayoutEffect, useRef } from 'preact/hooks';
import { canInvite, canSeeGroups, closeSettings, isAdmin, ORGANIZATION_SECTIONS, PERSONAL_SECTIONS } from './route.ts';
import { ProfileSection } from './Profile.tsx';
import { AccountSection } from './Account.tsx';
import { PreferencesSection } from './Preferences.tsx';
import { NotificationsSection } from './Notifications.tsx';
import { StreamsPage } from './Streams.tsx';
import { OrganizationProfile, OrganizationSettings } from '../admin/Organization.tsx';
import { UsersSection } from '../admin/Users.tsx';
import { StreamsSection } from '../admin/Streams.tsx';
import { EmojiSection } from '../admin/Emoji.tsx';
import { LinkifiersSection } from '../admin/Linkifiers.tsx';
import { ProfileFieldsSection } from '../admin/ProfileFields.tsx';
import { GroupsSection } from '../admin/Groups.tsx';
import { BotsSection } from '../admin/Bots.tsx';
import { InvitationsSection } from '../admin/Invitations.tsx';
import './settings.css';

const PAGES: Record<string, () => preact.JSX.Element> = {
  'settings/profile': ProfileSection,
  'settings/account': AccountSection,
  'settings/preferences': PreferencesSection,
  'settings/notifications': NotificationsSection,
  'settings/streams': StreamsPage,
  'organization/profile': OrganizationProfile,
  'organization/settings': OrganizationSettings,
  'organization/users': UsersSection,
  'organization/streams': StreamsSection,
  'organization/emoji': EmojiSection,
  'organization/linkifiers': LinkifiersSection,
  'organization/profile-fields': ProfileFieldsSection,
  'organization/groups': GroupsSection,
  'organization/bots': BotsSection,
  'organization/invitations': InvitationsSection,
};

export function Overlay({ kind, section }: { kind: 'settings' | 'organization'; section: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const admin = isAdmin();
  const sections = kind === 'settings' ? PERSONAL_SECTIONS : ORGANIZATION_SECTIONS;
  const title = sections.find(([k]) => k === section)?.[1] ?? '';

  // Layout effects, not effects: they run in the same task that puts the dialog on the page, so
  // there is no moment (a frame or more on a busy machine) when the dialog shows while the keys
  // and the focus are still the main view's; a key pressed then would be lost (Escape did nothing).
  useLayoutEffect(() => {
    // Escape closes from anywhere on the page, before the main view's keys see it.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || (e.target as Element | null)?.closest?.('[role=menu], [role=listbox], .emoji-picker')) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      closeSettings();
    };
    window.addEventListener('keydown', onKey, true);
    // A modal dialog: the page behind it is out of reach of Tab and screen readers meanwhile
    // (the live region for toasts stays), and focus goes back where it was on closing.
    const opener = document.activeElement as HTMLElement | null;
    const behind = [...(ref.current?.parentElement?.children ?? [])].filter((el): el is HTMLElement => el !== ref.current && el instanceof HTMLElement && !el.matches('[aria-live]'));
    for (const el of behind) el.inert = true;
    return () => {
      window.removeEventListener('keydown', onKey, true);
      for (const el of behind) el.inert = false;
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  useLayoutEffect(() => {
    headingRef.current?.focus();
    // On a phone the sections are a row that scrolls sideways: the open one is brought into it.
    ref.current?.querySelector('.settings-nav [aria-current=page]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [kind, section]);

  const Page = PAGES[`${kind}/${section}`];
  // Pages open to others than administrators: Invitations when the realm's policy lets them
  // invite, and User groups to everyone but guests (what they may change there follows the policy).
  const open = (k: string) => (k === 'invitations' && canInvite()) || (k === 'groups' && canSeeGroups());
  const orgSections = admin ? ORGANIZATION_SECTIONS : ORGANIZATION_SECTIONS.filter(([k]) => open(k));
  const allowed = kind === 'settings' || admin || open(section);
  return (
    <div
      class="settings-overlay"
      role="dialog"
      aria-modal="true"
      aria-label={kind === 'settings' ? 'Personal settings' : 'Organization settings'}
      ref={ref}
      // The main view's single-key shortcuts stay out of the forms here.
      onKeyDown={(e) => e.stopPropagation()}
    >
      <div class="settings-panel">
        <header class="settings-header">
          <h1>{kind === 'settings' ? 'Personal settings' : 'Organization settings'}</h1>
          <button type="button" class="settings-close" onClick={closeSettings}>
            Close
          </button>
        </header>
        <div class="settings-body">
          <nav class="settings-nav" aria-label="Settings sections">
            <ul>
              {PERSONAL_SECTIONS.map(([k, label]) => (
                <li key={k}>
                  <a href={`#settings/${k}`} aria-current={kind === 'settings' && section === k ? 'page' : undefined}>
                    {label}
                  </a>
                </li>
              ))}
            </ul>
            {orgSections.length > 0 && (
              <ul aria-label="Organization">
                {orgSections.map(([k, label]) => (
                  <li key={k}>
                    <a href={`#organization/${k}`} aria-current={kind === 'organization' && section === k ? 'page' : undefined}>
                      {label}
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </nav>
          <section class="settings-page" aria-labelledby="settings-page-title">
            <h2 id="settings-page-title" tabIndex={-1} ref={headingRef}>
              {title}
            </h2>
            {allowed && Page ? (
              <Page />
            ) : (
              <p role="alert">
                Only the organization's administrators can change this.
                {orgSections.length > 0 && (
                  <>
                    {' '}
                    Open to you:{' '}
                    {orgSections.map(([k, label], i) => (
                      <span key={k}>
                        {i > 0 && ', '}
                        <a href={`#organization/${k}`}>{label}</a>
                      </span>
                    ))}
                    .
                  </>
                )}
              </p>
            )}
          </section>
        </div>
      </div>
    </div>
  );
}
