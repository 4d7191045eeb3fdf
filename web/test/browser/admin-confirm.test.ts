// Administration changes that cannot be taken back from the same page ask first, in a real
// Chromium against a real server: an administrator lowering their own role below administrator
// (they lose these pages), and removing a custom emoji or a linkifier. Cancel changes nothing;
// confirming does it. Each test logs in its own administrator.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, browserSkipReason, logIn, openSettings, setUp, until, type Env, type Person } from './harness.ts';
import type { Account } from '../../../test/helpers/server.ts';

const skip = browserSkipReason();
if (skip) console.log(`# browser tests skipped: ${skip}`);

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

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
    await page.getByText("Only the organization's administrators can change this.").waitFor();
    assert.equal(await roleOf(account.id), 300);
    // The focus stays in the overlay, on its page's title.
    await until('the focus on the title', () => page.getByRole('heading', { name: 'Users', level: 2 }).evaluate((h) => h === document.activeElement));
  });

  test('removing a custom emoji asks first; Cancel keeps it', async () => {
    const { person } = await admin('Eve Emoji');
    const page = person.page;
    await openSettings(person, '#organization/emoji');
    await page.getByRole('textbox', { name: 'Emoji name' }).fill('wave_eve');
    await page.getByLabel('Emoji image').setInputFiles({ name: 'wave.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Add emoji' }).click();
    const remove = page.getByRole('button', { name: 'Remove emoji wave_eve' });
    await remove.click();
    const ask = page.getByRole('alert').filter({ hasText: 'Remove :wave_eve:?' });
    await ask.waitFor();
    assert.equal(await remove.getAttribute('aria-expanded'), 'true');
    const names = async () => Object.values((await env.server.ok('GET', '/api/v1/realm/emoji')).emoji as Record<string, { name: string; deactivated: boolean }>).filter((e) => !e.deactivated).map((e) => e.name);
    assert.ok((await names()).includes('wave_eve'));
    assert.deepEqual(await axeViolations(page), []);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    assert.ok((await names()).includes('wave_eve'));
    // The button that asked has the keys again.
    await until('the focus back on Remove', () => remove.evaluate((b) => b === document.activeElement));

    await remove.click();
    await page.getByRole('button', { name: 'Confirm removal' }).click();
    await remove.waitFor({ state: 'detached' });
    assert.ok(!(await names()).includes('wave_eve'));
    await until('the focus on the title', () => page.getByRole('heading', { name: 'Custom emoji', level: 2 }).evaluate((h) => h === document.activeElement));
  });

  test('a button that gives way to its question leaves the keys on Cancel, and Cancel gives them to the button again', async () => {
    const { person } = await admin('Sam Streams');
    const page = person.page;
    await env.server.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'keys-stay' }] });
    await openSettings(person, '#organization/streams');
    await page.getByRole('button', { name: 'Edit stream keys-stay' }).click();
    const edit = page.getByRole('group', { name: 'Edit stream keys-stay' });
    await edit.getByRole('button', { name: 'Archive stream' }).focus();
    await page.keyboard.press('Enter');
    const ask = page.getByRole('alert').filter({ hasText: 'Archive #keys-stay?' });
    await ask.waitFor();
    await until('the focus on Cancel', () => ask.getByRole('button', { name: 'Cancel' }).evaluate((b) => b === document.activeElement));
    await page.keyboard.press('Enter');
    await ask.waitFor({ state: 'detached' });
    await until('the focus on Archive stream', () => edit.getByRole('button', { name: 'Archive stream' }).evaluate((b) => b === document.activeElement));
  });

  test('removing a linkifier asks first; Cancel keeps it', async () => {
    const { person } = await admin('Lin Linker');
    const page = person.page;
    await openSettings(person, '#organization/linkifiers');
    await page.getByRole('textbox', { name: 'Pattern', exact: true }).fill('LIN-(?P<id>[0-9]+)');
    await page.getByRole('textbox', { name: 'URL template' }).fill('https://example.com/lin/{id}');
    await page.getByRole('button', { name: 'Add linkifier' }).click();
    const remove = page.getByRole('button', { name: 'Remove linkifier LIN-(?P<id>[0-9]+)' });
    await remove.click();
    const ask = page.getByRole('alert').filter({ hasText: 'Remove the linkifier LIN-(?P<id>[0-9]+)?' });
    await ask.waitFor();
    const patterns = async () => ((await env.server.ok('GET', '/api/v1/realm/linkifiers')).linkifiers as { pattern: string }[]).map((l) => l.pattern);
    assert.ok((await patterns()).includes('LIN-(?P<id>[0-9]+)'));
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    assert.ok((await patterns()).includes('LIN-(?P<id>[0-9]+)'));

    await remove.click();
    await page.getByRole('button', { name: 'Confirm removal' }).click();
    await remove.waitFor({ state: 'detached' });
    assert.ok(!(await patterns()).includes('LIN-(?P<id>[0-9]+)'));
    await until('the focus on the title', () => page.getByRole('heading', { name: 'Linkifiers', level: 2 }).evaluate((h) => h === document.activeElement));
  });
});
