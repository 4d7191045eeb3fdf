// User groups for people who are not administrators, in a real Chromium against a real server:
// members open the groups page from their menu and see every group with its members; the
// realm's user_group_edit_policy decides whether they may create groups and change those they
// belong to (the server's rule); guests, whom the server does not list groups to, get no page.
// Each test logs in its own people and sets the policy it needs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, browserSkipReason, logIn, setUp, until, type Env, type Person } from './harness.ts';

const skip = browserSkipReason();
if (skip) console.log(`# browser tests skipped: ${skip}`);

describe('user groups for members', { skip: skip ?? false }, () => {
  let env: Env;

  before(async () => {
    env = await setUp();
  });

  after(async () => {
    await env?.close();
  });

  const group = (name: string, members: number[]) => env.server.ok('POST', '/api/v1/user_groups/create', { name, description: `the ${name}`, members: JSON.stringify(members) });

  /** Opens the page as a member would: from the personal menu. */
  async function openGroups(p: Person): Promise<void> {
    await p.page.getByRole('button', { name: 'Personal menu' }).click();
    await p.page.getByRole('menu', { name: 'Personal menu' }).getByRole('menuitem', { name: 'User groups' }).click();
    await p.page.getByRole('heading', { name: 'User groups', level: 2 }).waitFor();
  }

  test('when the policy lets members edit groups, a member creates one and changes those they are in; others they only see', async () => {
    await env.server.ok('PATCH', '/api/v1/realm', { user_group_edit_policy: 1 });
    const mel = await env.server.createUser('Mel Member');
    const other = await env.server.createUser('Oz Other');
    await group('mels-team', [mel.id]);
    await group('oz-team', [other.id]);
    const p = await logIn(env, mel.email, mel.password!);
    await openGroups(p);
    const page = p.page;
    const nav = page.getByRole('navigation', { name: 'Settings sections' });
    assert.ok((await nav.getByRole('list', { name: 'Organization' }).getByRole('link').allInnerTexts()).includes('User groups'));

    // A group they are not in: its members, no controls.
    const oz = page.getByRole('listitem').filter({ hasText: '@oz-team' });
    assert.equal(await oz.getByRole('button', { name: 'Edit group oz-team' }).count(), 0);
    await oz.getByRole('button', { name: 'Members of oz-team' }).click();
    await page.getByRole('group', { name: 'Members of oz-team' }).getByText('Oz Other').waitFor();
    assert.equal(await page.getByRole('button', { name: /Remove Oz Other/ }).count(), 0);

    // Their own group: edited.
    await page.getByRole('button', { name: 'Edit group mels-team' }).click();
    const edit = page.getByRole('group', { name: 'Edit group mels-team' });
    await edit.getByRole('combobox', { name: 'Add a member' }).selectOption({ label: 'Oz Other' });
    await edit.getByRole('button', { name: 'Remove Oz Other from mels-team' }).waitFor();
    assert.deepEqual(await axeViolations(page), []);

    // And a new one.
    await page.getByRole('textbox', { name: 'Group name' }).fill('mels-new');
    await page.getByRole('button', { name: 'Create group' }).click();
    await page.getByRole('button', { name: 'Edit group mels-new' }).waitFor();
    const groups = (await env.server.ok('GET', '/api/v1/user_groups')).user_groups as { name: string; members: number[] }[];
    assert.deepEqual(groups.find((g) => g.name === 'mels-team')?.members.sort(), [mel.id, other.id].sort());
    assert.deepEqual(groups.find((g) => g.name === 'mels-new')?.members, [mel.id]);
  });

  test('when only administrators may edit groups, a member sees them all with their members and is told who can change them, live', async () => {
    await env.server.ok('PATCH', '/api/v1/realm', { user_group_edit_policy: 1 });
    const rae = await env.server.createUser('Rae Reader');
    await group('raes-team', [rae.id]);
    const p = await logIn(env, rae.email, rae.password!);
    await openGroups(p);
    const page = p.page;
    await page.getByRole('button', { name: 'Edit group raes-team' }).waitFor();

    await env.server.ok('PATCH', '/api/v1/realm', { user_group_edit_policy: 2 });
    await page.getByText('Only administrators can create and change groups in this organization.').waitFor();
    await until('the controls to go', async () => (await page.getByRole('button', { name: 'Edit group raes-team' }).count()) === 0);
    assert.equal(await page.getByRole('button', { name: 'Create group' }).count(), 0);
    await page.getByRole('button', { name: 'Members of raes-team' }).click();
    await page.getByRole('group', { name: 'Members of raes-team' }).getByText('Rae Reader').waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await env.server.ok('PATCH', '/api/v1/realm', { user_group_edit_policy: 1 });
  });

  test('a guest has no groups page: not in the menu, and the URL says no', async () => {
    const gil = await env.server.createUser('Gil Guest', { role: 600 });
    const p = await logIn(env, gil.email, gil.password!);
    await p.page.getByRole('button', { name: 'Personal menu' }).click();
    const menu = p.page.getByRole('menu', { name: 'Personal menu' });
    await menu.getByRole('menuitem', { name: 'Personal settings' }).waitFor();
    assert.equal(await menu.getByRole('menuitem', { name: 'User groups' }).count(), 0);
    await p.page.keyboard.press('Escape');
    await p.page.evaluate(() => (location.hash = '#organization/groups'));
    await p.page.getByText("Only the organization's administrators can change this.").waitFor();
    assert.equal(await p.page.getByRole('heading', { name: 'Groups', level: 3 }).count(), 0);
  });
  test("a member at an administrators' page of the organization is told whose it is, with links to the pages open to them", async () => {
    const mo = await env.server.createUser('Mo Member');
    const p = await logIn(env, mo.email, mo.password!);
    await p.page.evaluate(() => (location.hash = '#organization/settings'));
    const alert = p.page.getByRole('dialog').getByRole('alert').filter({ hasText: "Only the organization's administrators can change this." });
    await alert.waitFor();
    await alert.getByRole('link', { name: 'User groups' }).click();
    await p.page.getByRole('heading', { name: 'User groups', level: 2 }).waitFor();
    assert.equal(await p.page.evaluate(() => location.hash), '#organization/groups');
  });
});
