// The main view: header, streams sidebar, message list with compose, users sidebar.
import { useEffect } from 'preact/hooks';
import { useComputed } from '@preact/signals';
import { client, store } from './context.ts';
import { compose, dialog, drawer, errorText, showToast, toast, view } from './state.ts';
import { currentNarrow, followTopicMove, narrowTitle, readHash } from './nav.ts';
import { Header } from './Header.tsx';
import { Sidebar } from './Sidebar.tsx';
import { MessageView } from './MessageView.tsx';
import { Drafts } from './Drafts.tsx';
import { Scheduled } from './Scheduled.tsx';
import { Inbox } from './Inbox.tsx';
import { Recent } from './Recent.tsx';
import { Compose, ComposeButtons } from './Compose.tsx';
import { UserList } from './UserList.tsx';
import { Dialogs } from './Dialogs.tsx';
import { installKeys } from './keys.ts';
import { installAlerts } from './alerts.ts';
import { SettingsOverlay } from './settings/Mount.tsx';
import { badgeCount } from '../lib/display.ts';
import { Lightbox } from './Lightbox.tsx';

function setFavicon(count: number): void {
  const badge = count > 0 ? `<circle cx="24" cy="8" r="8" fill="#d33"/><text x="24" y="12" font-size="${count > 99 ? 7 : 11}" text-anchor="middle" fill="#fff" font-family="sans-serif" font-weight="bold">${count > 99 ? '99+' : count}</text>` : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#2f6f5e"/><path d="M8 9h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2h-9l-5 4v-4H8a2 2 0 0 1-2-2v-9a2 2 0 0 1 2-2z" fill="#fff"/>${badge}</svg>`;
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.append(link);
  }
  link.type = 'image/svg+xml';
  link.href = 'data:image/svg+xml,' + encodeURIComponent(svg);
}

const VIEW_TITLES = { drafts: 'Drafts', scheduled: 'Scheduled messages', inbox: 'Inbox', recent: 'Recent conversations' };

function CenterView() {
  switch (view.value.kind) {
    case 'drafts':
      return <Drafts />;
    case 'scheduled':
      return <Scheduled />;
    case 'inbox':
      return <Inbox />;
    case 'recent':
      return <Recent />;
    default:
      return <MessageView />;
  }
}

export function App() {
  const total = useComputed(() => {
    const counts = store.unread.counts.value;
    return badgeCount(store.settings.user.value, counts.total, () => store.unread.unreadIds((e) => e.kind === 'dm' || e.mentioned).length);
  });

  useEffect(() => {
    readHash();
    window.addEventListener('hashchange', readHash);
    const removeKeys = installKeys();
    const removeAlerts = installAlerts();
    store.onTopicMoved = (move) => {
      followTopicMove(move);
      client.moveDrafts(move).catch((e) => showToast(`Could not move drafts: ${errorText(e)}`, true));
    };
    // Presence: active while the page has focus, reported every minute as the reference does.
    const report = () => void client.reportPresence(document.hasFocus());
    report();
    const presenceTimer = setInterval(report, 60_000);
    const clock = setInterval(() => {
      store.users.tick();
      store.typing.expire();
    }, 5_000);
    const online = () => client.queue?.retryNow();
    window.addEventListener('online', online);
    window.addEventListener('focus', report);
    return () => {
      window.removeEventListener('hashchange', readHash);
      window.removeEventListener('online', online);
      window.removeEventListener('focus', report);
      clearInterval(presenceTimer);
      clearInterval(clock);
      removeKeys();
      removeAlerts();
      store.onTopicMoved = null;
    };
  }, []);

  useEffect(() => {
    const v = view.value;
    const title = v.kind === 'narrow' ? narrowTitle(currentNarrow()) : VIEW_TITLES[v.kind];
    const realm = String(store.settings.realm.value.name ?? 'Parley');
    document.title = `${total.value > 0 ? `(${total.value}) ` : ''}${title} - ${realm}`;
    setFavicon(total.value);
  }, [total.value, view.value, store.settings.realm.value]);

  const status = client.status.value;
  return (
    <div class={`app ${drawer.value ? `drawer-${drawer.value}` : ''}`}>
      <Header />
      {status === 'reconnecting' && (
        <div class="banner" role="status">
          Reconnecting…
        </div>
      )}
      <div class="columns">
        <Sidebar />
        <div class="center">
          <CenterView />
          {compose.value ? <Compose /> : <ComposeButtons />}
        </div>
        <UserList />
      </div>
      {drawer.value && <div class="scrim" onClick={() => (drawer.value = null)} />}
      {dialog.value && <Dialogs />}
      <SettingsOverlay />
      <Lightbox />
      <div class="toast-region" role="status" aria-live="polite">
        {toast.value && <div class={`toast ${toast.value.error ? 'error' : ''}`}>{toast.value.text}</div>}
      </div>
    </div>
  );
}
