// A person whose account is deactivated while their page is open, in a real Chromium against a
// real server: their page goes to the login page at once and says why (the same words a login
// attempt of a deactivated account gets); a session ended otherwise says nothing of the kind.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, browserSkipReason, logIn, setUp, until, type Env } from './harness.ts';

const skip = browserSkipReason();
if (skip) console.log(`# browser tests skipped: ${skip}`);

const DEACTIVATED = 'Your account has been deactivated. Ask an administrator of the organization to reactivate it.';

/**
 * Until the person's page has a long-poll waiting on the server with nothing to answer it, and
 * has had for half a second: the page that is open and idle. (A poll answered by another event
 * just before the deactivation, such as the person's own presence on PostgreSQL with Redis, comes
 * back after the session ended and is refused before any event could say why.)
 */
async function pollWaiting(env: Env, userId: number): Promise<void> {
  const queues = env.server.server.app.queues!;
  let seen: unknown = null;
  let since = 0;
  await until('the page to wait quietly for events', async () => {
    const data = queues.save().find((d) => d.client.userId === userId && queues.held(d.id, userId)?.waiter != null);
    const waiter = data ? queues.held(data.id, userId)!.waiter : null;
    if (!waiter || waiter !== seen || waiter.lastEventId !== data!.lastEventId) {
      seen = waiter;
      since = Date.now();
      return false;
    }
    return Date.now() - since >= 500;
  });
}

describe('deactivated while the page is open', { skip: skip ?? false }, () => {
  let env: Env;

  before(async () => {
    env = await setUp();
  });

  after(async () => {
    await env?.close();
  });

  test('the login page says the account was deactivated and whom to ask', async () => {
    const dan = await env.server.createUser('Dan Deactivated');
    const { page } = await logIn(env, dan.email, dan.password!);
    await pollWaiting(env, dan.id);
    await env.server.ok('DELETE', `/api/v1/users/${dan.id}`);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await page.getByRole('alert').filter({ hasText: DEACTIVATED }).waitFor();
    assert.equal(await page.getByRole('navigation', { name: 'Streams', exact: true }).count(), 0);
    assert.deepEqual(await axeViolations(page), []);
  });

  test('a session ended by "Log out everywhere" shows the login page with no such reason', async () => {
    const lou = await env.server.createUser('Lou Loggedout');
    const { page } = await logIn(env, lou.email, lou.password!);
    const cut = page.waitForResponse((r) => new URL(r.url()).pathname === '/json/events' && r.status() === 401);
    const other = await logIn(env, lou.email, lou.password!);
    await other.page.evaluate(() => (location.hash = '#settings/account'));
    await other.page.getByRole('button', { name: 'Log out everywhere' }).click();
    await other.page.getByRole('button', { name: 'Log out of all sessions' }).click();
    await cut;
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    assert.equal(await page.getByRole('alert').count(), 0);
  });
});
