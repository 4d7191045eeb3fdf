// Starts the app: register with the session cookie; no session shows the login page.
import { render } from 'preact';
import { signal } from '@preact/signals';
import { Api, ApiError } from './api/http.ts';
import { Client } from './api/client.ts';
import { Store } from './store/index.ts';
import { setContext } from './views/context.ts';
import { applyTheme, followSystemTheme } from './views/state.ts';
import { Login, type LoginReason } from './views/Login.tsx';
import { App } from './views/App.tsx';
import { narrowFromHash } from './views/nav.ts';
import './views/styles.css';

const phase = signal<'loading' | 'login' | 'app' | 'error'>('loading');
const failure = signal('');
/** What the login page says first: why the app left for it. */
const loginReason = signal<LoginReason | undefined>(undefined);

async function boot(): Promise<void> {
  // Any request refused for want of a session (it was ended, e.g. by "Log out everywhere" in
  // another browser) shows the login page, and this client stops (once: stopping asks too).
  const loggedOut = (reason?: LoginReason) => {
    if (phase.value === 'login') return;
    loginReason.value = reason;
    phase.value = 'login';
    void client.stop();
  };
  const client: Client = new Client(new Api({ base: '/json', onUnauthorized: () => loggedOut() }), new Store());
  setContext(client);
  client.onUnauthorized = () => loggedOut();
  // A deactivation reaches the person's own queue just before their session ends: it says why.
  client.store.onDeactivated = () => loggedOut('deactivated');
  try {
    await client.start();
    // The first page of messages is on its way while the app renders.
    const narrow = narrowFromHash();
    if (narrow) void client.loadInitial(client.store.messages.list(narrow)).catch(() => undefined);
    phase.value = 'app';
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      loginReason.value = undefined;
      phase.value = 'login';
    }
    else {
      failure.value = e instanceof Error ? e.message : String(e);
      phase.value = 'error';
    }
  }
}

function Root() {
  switch (phase.value) {
    case 'loading':
      return <div class="splash" role="status">Loading…</div>;
    case 'login':
      return <Login reason={loginReason.value} onLoggedIn={() => void boot()} />;
    case 'error':
      return (
        <main class="splash">
          <p role="alert">Parley could not start: {failure.value}</p>
          <button type="button" onClick={() => location.reload()}>Try again</button>
        </main>
      );
    case 'app':
      return <App />;
  }
}

applyTheme();
followSystemTheme();
render(<Root />, document.getElementById('app')!);
void boot();
