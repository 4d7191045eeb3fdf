// "Log out everywhere" in Account settings, in a real Chromium against a real server: the same
// person in two browser contexts; the first ends every session after a confirmation and lands on
// the login page; the second's open long-poll ends at once (401) and it shows the login page too;
// the person's API key still works; axe-core finds no serious or critical violation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, browserSkipReason, logIn, setUp, type Env, type Person } from './harness.ts';
import type { Account } from '../../../test/helpers/server.ts';

const skip = browserSkipReason();
if (skip) console.log(`# browser tests skipped: ${skip}`);

describe('log out everywhere', { skip: skip ?? false }, () => {
  let env: Env;
  let alice: Account;
  let here: Person;
  let elsewhere: Person;

  before(async () => {
    env = await setUp();
    alice = await env.server.createUser('Alice');
    [here, elsewhere] = await Promise.all([logIn(env, alice.email, alice.password!), logIn(env, alice.email, alice.password!)]);
    await here.page.evaluate(() => (location.hash = '#settings/account'));
    await here.page.getByRole('heading', { name: 'Sessions' }).waitFor();
  });

  after(async () => {
    await env?.close();
  });

  test('the section says what it ends and what it keeps, asks first, and axe finds nothing serious', async () => {
    const page = here.page;
    const hint = page.getByText('Log out of Parley in every browser');
    assert.match(await hint.innerText(), /this one included[\s\S]*API key[\s\S]*keep working/);
    await page.getByRole('button', { name: 'Log out everywhere' }).click();
    const confirm = page.getByRole('button', { name: 'Log out of all sessions' });
    await confirm.waitFor();
    // The focus moved to the confirmation; Cancel goes back without ending anything.
    assert.equal(await confirm.evaluate((b) => b === document.activeElement), true);
    assert.deepEqual(await axeViolations(page), []);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Log out everywhere' }).waitFor();
    const sessions = await env.server.server.app.db.kysely.selectFrom('sessions').select('user_id').where('user_id', '=', alice.id).execute();
    assert.equal(sessions.length, 2);
  });

  test('both browsers end on the login page at once: the other one as its open long-poll is answered 401', async () => {
    const other = elsewhere.page;
    await other.getByRole('navigation', { name: 'Streams', exact: true }).waitFor();
    const cut = other.waitForResponse((r) => new URL(r.url()).pathname === '/json/events' && r.status() === 401);
    await here.page.getByRole('button', { name: 'Log out everywhere' }).click();
    await here.page.getByRole('button', { name: 'Log out of all sessions' }).click();
    await here.page.getByRole('button', { name: 'Log in' }).waitFor();

    // The other browser does nothing: its waiting poll is ended, and it shows the login page.
    await cut;
    await other.getByRole('button', { name: 'Log in' }).waitFor();
    assert.equal(await other.getByRole('navigation', { name: 'Streams', exact: true }).count(), 0);

    // API keys are not sessions: Alice's still works.
    const me = await env.server.ok('GET', '/api/v1/users/me', {}, alice);
    assert.equal(me.user_id, alice.id);
    // And she can log in again.
    await other.getByRole('textbox', { name: 'Email' }).fill(alice.email);
    await other.getByRole('textbox', { name: 'Password' }).fill(alice.password!);
    await other.getByRole('button', { name: 'Log in' }).click();
    await other.getByRole('navigation', { name: 'Streams', exact: true }).waitFor();
  });
});
