import { useEffect, useRef, useState } from 'preact/hooks';
import { logout } from '../api/client.ts';
import { client, store } from './context.ts';
import { dialog, drawer, errorText, setTheme, showToast, theme, view } from './state.ts';
import { currentNarrow, go, searchNarrow, searchText } from './nav.ts';
import { Menu } from './Menu.tsx';
import { MenuIcon, MoonIcon, PeopleIcon, SunIcon } from './icons.tsx';
import { askNotificationPermission, setSound } from './alerts.ts';
import { SuggestionList, comboProps, searchBoxSuggestions, suggestionKey, suggestions, type Choice } from './Suggestions.tsx';
import { notificationPermission } from '../lib/notify.ts';
import { localImageUrl } from '../lib/images.ts';
import { canInvite, canSeeGroups, isAdmin } from './settings/route.ts';

export function Header() {
  const narrow = view.value.kind === 'narrow' ? currentNarrow() : [];
  const isSearch = narrow.some((t) => t.operator === 'search' || t.operator === 'has' || t.operator === 'sender');
  const text = isSearch ? searchText(narrow) : '';
  // As in the reference web app, a search started in a stream, topic or conversation searches
  // there: the box starts with that narrow's operators (which the person may remove).
  const scope = isSearch ? '' : searchText(narrow);
  const [query, setQuery] = useState(text);
  const [menuOpen, setMenuOpen] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);
  useEffect(() => setQuery(text), [text]);

  function search(q: string) {
    suggestions.value = null;
    go(q.trim() ? searchNarrow(q.trim()) : []);
    searchRef.current?.blur();
  }

  function submit(e: Event) {
    e.preventDefault();
    search(query);
  }

  function pickSearch(c: Choice) {
    const { text: picked } = c.apply();
    setQuery(picked);
    // A whole term searches; an operator waits for its operand, with the operands suggested.
    if (c.complete) search(picked);
    else suggestions.value = searchBoxSuggestions(picked);
  }

  const me = store.settings.me.value;
  const permission = notificationPermission();
  const sound = store.settings.user.value.enable_sounds !== false;
  const addressed = store.unread.counts.value.addressed;
  return (
    <header class="topbar">
      <button
        type="button"
        class="icon-button drawer-button"
        aria-describedby={addressed ? 'drawer-addressed' : undefined}
        aria-expanded={drawer.value === 'left'}
        onClick={() => (drawer.value = drawer.value === 'left' ? null : 'left')}
      >
        {/* Named by its content, not aria-label: a label that left out the badge's visible number was a
            serious axe violation (label-content-name-mismatch); the number is told by aria-describedby. */}
        <span class="sr-only">Open streams</span>
        <MenuIcon />
        {/* On a phone the sidebar's counts are out of sight: a DM or a mention arriving shows here. */}
        {addressed > 0 && (
          <span class="drawer-badge" aria-hidden="true">
            {addressed > 99 ? '99+' : addressed}
          </span>
        )}
      </button>
      {addressed > 0 && (
        <span id="drawer-addressed" class="sr-only">
          {addressed} unread direct {addressed === 1 ? 'message or mention' : 'messages and mentions'}
        </span>
      )}
      <a class="brand" href="#feed">
        <RealmIcon />
        <span class="brand-name">{String(store.settings.realm.value.name ?? 'Parley')}</span>
      </a>
      <form class="search" role="search" onSubmit={submit}>
        <input
          ref={searchRef}
          id="search"
          type="search"
          aria-label="Search"
          placeholder="Search"
          value={query}
          {...comboProps('search')}
          onFocus={() => {
            if (!query && scope) setQuery(`${scope} `);
          }}
          onBlur={() => {
            if (suggestions.peek()?.field === 'search') suggestions.value = null;
            // Left with only the narrow's own operators: nothing was searched.
            if (scope && query.trim() === scope) setQuery(text);
          }}
          onInput={(e) => {
            setQuery(e.currentTarget.value);
            suggestions.value = searchBoxSuggestions(e.currentTarget.value);
          }}
          onKeyDown={(e) => {
            if (suggestionKey(e, 'search', pickSearch)) return;
            if (e.key === 'Escape') {
              setQuery('');
              e.currentTarget.blur();
            }
          }}
        />
        <SuggestionList field="search" pick={pickSearch} />
      </form>
      <button type="button" class="icon-button" aria-label={theme.value === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'} onClick={() => setTheme(theme.value === 'dark' ? 'light' : 'dark')}>
        {theme.value === 'dark' ? <SunIcon /> : <MoonIcon />}
      </button>
      <div class="menu-anchor">
        <button type="button" class="avatar-button" aria-label="Personal menu" aria-haspopup="menu" aria-expanded={menuOpen} onClick={() => setMenuOpen(!menuOpen)}>
          <Avatar userId={me.user_id} size={28} />
        </button>
        {menuOpen && (
          <Menu
            label="Personal menu"
            onClose={() => setMenuOpen(false)}
            items={[
              { label: me.full_name || me.email, disabled: true },
              { label: 'Personal settings', action: () => (location.hash = '#settings/profile') },
              isAdmin() ? { label: 'Organization settings', action: () => (location.hash = '#organization/profile') } : null,
              canInvite() ? { label: 'Invite people', action: () => (location.hash = '#organization/invitations') } : null,
              // Administrators find them in the organization's settings.
              !isAdmin() && canSeeGroups() ? { label: 'User groups', action: () => (location.hash = '#organization/groups') } : null,
              { label: 'Keyboard shortcuts', action: () => (dialog.value = { kind: 'shortcuts' }) },
              permission === 'default' ? { label: 'Enable desktop notifications', action: () => void askNotificationPermission() } : null,
              {
                label: sound ? 'Turn notification sound off' : 'Turn notification sound on',
                action: () => setSound(!sound).catch((e) => showToast(errorText(e), true)),
              },
              {
                label: 'Log out',
                action: async () => {
                  await client.stop();
                  await logout();
                  location.hash = '';
                  location.reload();
                },
              },
            ]}
          />
        )}
      </div>
      <button type="button" class="icon-button drawer-button" aria-label="Open users" aria-expanded={drawer.value === 'right'} onClick={() => (drawer.value = drawer.value === 'right' ? null : 'right')}>
        <PeopleIcon />
      </button>
    </header>
  );
}

/** An image URL this page may load (see localImageUrl), or null for a letter instead. */
export const localImage = (raw: string | null | undefined): string | null => localImageUrl(raw, location.origin);

/** A coloured square with a name's first letter, for a person or organization with no image. */
function Letter({ name, hue, size }: { name: string; hue: number; size: number }) {
  return (
    <span class="avatar letter" style={{ width: size, height: size, background: `hsl(${hue} 45% 45%)`, fontSize: size / 2.2 }} aria-hidden="true">
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}

/**
 * A person's avatar. The user store's URL is the live one (realm_user events change it); a
 * message's own URL is only used for a sender the store does not know.
 */
export function Avatar({ userId, size = 36, url }: { userId: number; size?: number; url?: string | null }) {
  const user = store.users.get(userId);
  const src = localImage(user ? user.avatar_url : url);
  if (src) return <img class="avatar" src={src} width={size} height={size} alt="" loading="lazy" />;
  return <Letter name={user?.full_name ?? '?'} hue={(userId * 47) % 360} size={size} />;
}

/** The organization's icon: the uploaded one, or the first letter of its name. */
export function RealmIcon({ size = 28 }: { size?: number }) {
  const realm = store.settings.realm.value;
  const src = realm.icon_source === 'U' ? localImage(realm.icon_url as string | undefined) : null;
  if (src) return <img class="avatar realm-icon" src={src} width={size} height={size} alt="" />;
  return <Letter name={String(realm.name ?? 'P')} hue={210} size={size} />;
}
