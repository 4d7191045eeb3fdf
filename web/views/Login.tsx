import { useEffect, useState } from 'preact/hooks';
import { login, organizationName } from '../api/client.ts';
import { ApiError } from '../api/http.ts';

/** Why the login page shows: the account was deactivated (while the page was open, or at a login attempt). */
export type LoginReason = 'deactivated';

const REASONS: Record<LoginReason, string> = {
  // The server's "Account is deactivated" leaves the person guessing what to do next.
  deactivated: 'Your account has been deactivated. Ask an administrator of the organization to reactivate it.',
};

export function Login({ onLoggedIn, reason }: { onLoggedIn: () => void; reason?: LoginReason }) {
  const [error, setError] = useState(reason ? REASONS[reason] : '');
  const [busy, setBusy] = useState(false);
  // Which organization this is, as its other pages (sign-up, reset) say it.
  const [org, setOrg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void organizationName().then((name) => live && setOrg(name));
    return () => {
      live = false;
    };
  }, []);

  async function submit(e: Event) {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    setBusy(true);
    setError('');
    try {
      await login(String(form.get('username') ?? ''), String(form.get('password') ?? ''));
      onLoggedIn();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'RATE_LIMIT_HIT') setError('Too many attempts. Wait a minute and try again.');
      else if (err instanceof ApiError && err.code === 'USER_DEACTIVATED') setError(REASONS.deactivated);
      else setError(err instanceof ApiError ? err.message : 'Could not reach the server. Check your connection and try again.');
      setBusy(false);
    }
  }

  return (
    <main class="login">
      <form class="login-card" method="post" action="/accounts/login/" onSubmit={submit}>
        <h1>Log in to {org ?? 'Parley'}</h1>
        <label>
          Email
          <input name="username" type="email" autocomplete="username" required autofocus />
        </label>
        <label>
          Password
          <input name="password" type="password" autocomplete="current-password" required />
        </label>
        {error && (
          <p class="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          Log in
        </button>
        {/* Server pages: the reset form mails a link; sign-up says when the organization needs an invitation. */}
        <p class="login-links">
          <a href="/accounts/password/reset/">Forgot your password?</a>
          <a href="/accounts/register/">Sign up</a>
        </p>
      </form>
    </main>
  );
}
