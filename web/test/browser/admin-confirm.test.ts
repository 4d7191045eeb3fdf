// Administration changes that cannot be taken back from the same page ask first, in a real
// Chromium against a real server: an administrator lowering their own role below administrator
// (they lose these pages). Cancel changes nothing; confirming does it. Each test logs in its own
// administrator.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, browserSkipReason, logIn, openSettings, setUp, until, type Env, type Person } from './harness.ts';
import type { Account } from '../../../test/helpers/server.ts';

const skip = browserSkipReason();
if (skip) console.log(`# browser tests skipped: ${skip}`);

describe('administration asks before what it cannot undo', { skip: skip ?? false }, () => {
  let env: Env;

  before(async () => {
    env = await setUp();
  });

  after(async () => {
    await env?.close();
  });

  async function admin(name: string): Promise<{ account: Account; person: Person }> {
    const account = await env.server.createUser(name, { role: 200 });
    return { account, person: await logIn(env, account.email, account.password!) };
  }

  const roleOf = async (id: number) => ((await env.server.ok('GET', `/api/v1/users/${id}`)).user as { role: number }).role;

  test('an administrator lowering their own role is told they lose these pages; Cancel keeps the role', async () => {
    const { account, person } = await admin('Ann Admin');
    const page = person.page;
    await openSettings(person, '#organization/users');
    await page.getByRole('dialog').getByRole('searchbox', { name: 'Filter users' }).fill('Ann');
    await page.getByRole('button', { name: 'Edit Ann Admin' }).click();
    const role = page.getByRole('combobox', { name: 'Role of Ann Admin' });
    await role.selectOption({ label: 'Member' });
    const ask = page.getByRole('alert').filter({ hasText: "Change your own role to Member? You lose access to the organization's administration pages" });
    await ask.waitFor();
    assert.equal(await roleOf(account.id), 200);
    assert.deepEqual(await axeViolations(page), []);

    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    assert.equal(await role.inputValue(), '200');
    assert.equal(await roleOf(account.id), 200);

    // Another person's role changes at once, as before.
    const mo = await env.server.createUser('Mo Member');
    await page.getByRole('dialog').getByRole('searchbox', { name: 'Filter users' }).fill('Mo');
    await page.getByRole('button', { name: 'Edit Mo Member' }).click();
    await page.getByRole('combobox', { name: 'Role of Mo Member' }).selectOption({ label: 'Moderator' });
    await until('the role saved', async () => (await roleOf(mo.id)) === 300);
    assert.equal(await page.getByRole('button', { name: 'Confirm role change' }).count(), 0);
  });

  test('confirming the lower role saves it and the administration pages close to them', async () => {
    const { account, person } = await admin('Abe Admin');
    const page = person.page;
    await openSettings(person, '#organization/users');
    await page.getByRole('dialog').getByRole('searchbox', { name: 'Filter users' }).fill('Abe');
    await page.getByRole('button', { name: 'Edit Abe Admin' }).click();
    await page.getByRole('combobox', { name: 'Role of Abe Admin' }).selectOption({ label: 'Moderator' });
    await page.getByRole('button', { name: 'Confirm role change' }).click();
    await page.getByText("You don't have permission").waitFor();
    assert.equal(await roleOf(account.id), 300);
    // The focus stays in the overlay, on its page's title.
    await until('the focus on the title', () => page.getByRole('heading', { name: 'Users', level: 2 }).evaluate((h) => h === document.activeElement));
  });
});
