// The audit of joining, personal settings and administration, in a real Chromium against a real
// server, as two people: the owner, and a member who joins through an invite link the owner made
// in the UI. The owner's policy changes reach the member's UI live (creating streams, editing
// messages, the member's role); a deactivation logs the member out at once; the organization's
// email domains are managed in the UI, a bad domain says why and changes nothing; a stream name
// already taken is refused; axe-core finds no serious or critical violation on the new pages.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, browserSkipReason, logIn, newContext, openSettings, setUp, until, type Env, type Person } from './harness.ts';

const skip = browserSkipReason();
if (skip) console.log(`# browser tests skipped: ${skip}`);

const MIA = { email: 'mia@example.com', password: 'a long enough password 1' };

describe('administration audit: an owner and a member who joined by invite link', { skip: skip ?? false }, () => {
  let env: Env;
  let owner: Person;
  let mia: Person;
  let miaId: number;
  let generalId: number;

  /** A call as Mia, with her API key (for what the test sets up rather than audits). */
  const asMia = async (method: string, path: string, params: Record<string, string>) => {
    const key = (await env.server.ok('POST', '/api/v1/fetch_api_key', { username: MIA.email, password: MIA.password })).api_key as string;
    const res = await fetch(`${env.url}/api/v1${path}`, {
      method,
      headers: { Authorization: `Basic ${Buffer.from(`${MIA.email}:${key}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params),
    });
    assert.equal(res.status, 200, await res.text());
  };

  const open = openSettings;

  before(async () => {
    env = await setUp();
    owner = await logIn(env, env.server.owner.email, env.server.owner.password!);
    await open(owner, '#organization/invitations');
    const form = owner.page.getByRole('region', { name: 'Reusable invite link' });
    await form.getByRole('button', { name: 'Create invite link' }).click();
    const link = await form.getByRole('textbox', { name: 'Invite link' }).inputValue();

    const context = await newContext(env);
    const page = await context.newPage();
    await page.goto(env.url + new URL(link).pathname);
    await page.getByRole('textbox', { name: 'Email' }).fill(MIA.email);
    await page.getByRole('textbox', { name: 'Full name' }).fill('Mia Member');
    await page.getByLabel('Password').fill(MIA.password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('navigation', { name: 'Streams', exact: true }).waitFor();
    mia = { context, page };
    const users = (await env.server.ok('GET', '/api/v1/users')).members as { user_id: number; email: string }[];
    miaId = users.find((u) => u.email === MIA.email)!.user_id;
    generalId = ((await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'general' })).stream_id as number);
  });

  after(async () => {
    await env?.close();
  });

  test('the member browses streams from the sidebar; the create form follows the policies live; a taken name is refused', async () => {
    await mia.page.getByRole('link', { name: 'Browse and create streams' }).click();
    await mia.page.getByRole('heading', { name: 'Your streams', level: 2 }).waitFor();
    const create = mia.page.getByRole('button', { name: 'Create stream' });
    await create.waitFor();

    // The owner lets only administrators create streams, in the UI: the member's form goes.
    await open(owner, '#organization/settings');
    await owner.page.getByRole('combobox', { name: 'Who can create public streams' }).selectOption({ label: 'Administrators' });
    await until('the member to see public creation closed', async () => (await mia.page.getByRole('checkbox', { name: /^Private/ }).isDisabled()) && (await mia.page.getByRole('checkbox', { name: /^Private/ }).isChecked()));
    await owner.page.getByRole('combobox', { name: 'Who can create private streams' }).selectOption({ label: 'Administrators' });
    await create.waitFor({ state: 'detached' });
    await mia.page.getByText('ask an administrator').waitFor();
    await owner.page.getByRole('combobox', { name: 'Who can create public streams' }).selectOption({ label: 'Members' });
    await owner.page.getByRole('combobox', { name: 'Who can create private streams' }).selectOption({ label: 'Members' });
    await create.waitFor();

    // A name that exists: said, and nothing is created or joined.
    const name = mia.page.getByRole('textbox', { name: 'Stream name' });
    await name.fill('General');
    await create.click();
    await mia.page.getByRole('alert').filter({ hasText: 'A stream named #general already exists.' }).waitFor();
    const before = (await env.server.ok('GET', '/api/v1/streams')).streams as unknown[];

    await name.fill('lunch');
    await create.click();
    await mia.page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^lunch/ }).waitFor();
    const list = mia.page.getByRole('list', { name: 'All streams' });
    await list.getByRole('button', { name: 'Unsubscribe from lunch' }).click();
    await list.getByRole('button', { name: 'Subscribe to lunch' }).click();
    await list.getByRole('button', { name: 'Unsubscribe from lunch' }).waitFor();
    assert.equal(((await env.server.ok('GET', '/api/v1/streams')).streams as unknown[]).length, before.length + 1);
    // The form says what it made, with the way there; each name in the list opens its stream.
    await mia.page.getByRole('status').filter({ hasText: 'Created #lunch.' }).waitFor();
    assert.equal(await list.getByRole('link', { name: '#lunch' }).count(), 1);
    await mia.page.getByRole('link', { name: 'Go to #lunch' }).click();
    await mia.page.getByRole('dialog', { name: /settings/ }).waitFor({ state: 'detached' });
    await mia.page.getByRole('heading', { name: '#lunch' }).waitFor();
  });

  test('editing turned off by the owner leaves the member without "Edit message", live', async () => {
    await mia.page.evaluate(() => (location.hash = '#feed'));
    await mia.page.getByRole('dialog', { name: /settings/ }).waitFor({ state: 'detached' });
    await mia.page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^general/ }).click();
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'audit', content: 'the owner speaks' });
    // Mia's own message, sent with her key through the API (the composer is not what is audited).
    await asMia('POST', '/messages', { type: 'stream', to: 'general', topic: 'audit', content: 'mia speaks' });
    const msg = mia.page.getByRole('article').filter({ hasText: 'mia speaks' });
    const editItem = mia.page.getByRole('menuitem', { name: 'Edit message' });
    await msg.getByRole('button', { name: 'Message actions' }).click();
    await editItem.waitFor();
    await mia.page.keyboard.press('Escape');

    await owner.page.getByRole('checkbox', { name: 'Allow editing messages' }).uncheck();
    await until('the setting to reach the member', async () => {
      await msg.getByRole('button', { name: 'Message actions' }).click();
      await mia.page.getByRole('menu', { name: 'Message actions' }).getByRole('menuitem').first().waitFor();
      const offered = await editItem.count();
      await mia.page.keyboard.press('Escape');
      return offered === 0;
    });
    await owner.page.getByRole('checkbox', { name: 'Allow editing messages' }).check();
  });

  test("the member's role follows live; a deactivation logs the member out at once; reactivation restores the account", async () => {
    await open(owner, '#organization/users');
    await owner.page.getByRole('dialog').getByRole('searchbox', { name: 'Filter users' }).fill('mia');
    await owner.page.getByRole('button', { name: 'Edit Mia Member' }).click();
    await owner.page.getByRole('combobox', { name: 'Role of Mia Member' }).selectOption({ label: 'Administrator' });
    await owner.page.getByRole('cell', { name: 'Administrator' }).waitFor();
    // Mia's menu now offers the organization's settings.
    await mia.page.getByRole('button', { name: 'Personal menu' }).click();
    await mia.page.getByRole('menuitem', { name: 'Organization settings' }).waitFor();
    await mia.page.keyboard.press('Escape');
    await owner.page.getByRole('combobox', { name: 'Role of Mia Member' }).selectOption({ label: 'Member' });
    await owner.page.getByRole('cell', { name: 'Member', exact: true }).waitFor();

    await owner.page.getByRole('button', { name: 'Deactivate Mia Member' }).click();
    await owner.page.getByRole('button', { name: 'Confirm deactivation' }).click();
    await owner.page.getByText('No users match').waitFor();
    await mia.page.getByRole('button', { name: 'Log in' }).waitFor({ timeout: 15_000 });
    // Trying to log in again says what happened and whom to ask.
    await mia.page.getByRole('textbox', { name: 'Email' }).fill(MIA.email);
    await mia.page.getByRole('textbox', { name: 'Password' }).fill(MIA.password);
    await mia.page.getByRole('button', { name: 'Log in' }).click();
    await mia.page.getByRole('alert').filter({ hasText: 'Your account has been deactivated. Ask an administrator of the organization to reactivate it.' }).waitFor();

    await owner.page.getByRole('combobox', { name: 'Show' }).selectOption('deactivated');
    await owner.page.getByRole('button', { name: 'Reactivate Mia Member' }).click();
    await owner.page.getByText('No users match').waitFor();
    const me = await env.server.ok('GET', `/api/v1/users/${miaId}`);
    assert.equal((me.user as { is_active: boolean }).is_active, true);
    mia = await logIn(env, MIA.email, MIA.password);
  });

  test('email domains of open sign-up: a bad domain is refused with the reason; one added, changed and removed follows in a second tab', async () => {
    await open(owner, '#organization/settings');
    const second = await owner.context.newPage();
    await second.goto(`${env.url}/#organization/settings`);
    const form = owner.page.getByRole('form', { name: 'Add an email domain' });
    const input = form.getByRole('textbox', { name: 'New email domain' });
    await input.fill('nodot');
    await form.getByRole('button', { name: 'Add domain' }).click();
    await form.getByRole('alert').filter({ hasText: 'Invalid domain' }).waitFor();
    assert.deepEqual((await env.server.ok('GET', '/api/v1/realm/domains')).domains, []);

    await input.fill('Acme.example');
    await form.getByRole('checkbox', { name: 'Subdomains too' }).check();
    await form.getByRole('button', { name: 'Add domain' }).click();
    const otherList = second.getByRole('list', { name: 'Email domains' });
    await otherList.getByText('acme.example', { exact: true }).waitFor();
    assert.equal(await otherList.getByRole('checkbox', { name: 'Subdomains of acme.example too' }).isChecked(), true);
    await owner.page.getByRole('checkbox', { name: 'Subdomains of acme.example too' }).uncheck();
    await until('the second tab to follow', async () => !(await otherList.getByRole('checkbox', { name: 'Subdomains of acme.example too' }).isChecked()));
    assert.deepEqual((await env.server.ok('GET', '/api/v1/realm/domains')).domains, [{ domain: 'acme.example', allow_subdomains: false }]);

    // Open sign-up: the hint says what the domains now do.
    await owner.page.getByRole('checkbox', { name: 'Invitations are required to join' }).uncheck();
    await second.getByText('Anyone with an address at these domains can sign up').waitFor();
    await owner.page.getByRole('button', { name: 'Remove domain acme.example' }).click();
    await otherList.waitFor({ state: 'detached' });
    await second.getByText('No email domains.').waitFor();
    await owner.page.getByRole('checkbox', { name: 'Invitations are required to join' }).check();
    await owner.page.getByRole('listitem').filter({ hasText: 'Email and password' }).getByText('On').waitFor();
    await second.close();
  });

  test('deactivating oneself from the users list says it is one\'s own account before it is done', async () => {
    await open(owner, '#organization/users');
    await owner.page.getByRole('button', { name: 'Edit Olivia Owner' }).click();
    await owner.page.getByRole('button', { name: 'Deactivate Olivia Owner' }).click();
    const ask = owner.page.getByRole('alert').filter({ hasText: 'Deactivate your own account? You are logged out at once, and only an administrator can reactivate it.' });
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    await owner.page.getByRole('button', { name: 'Edit Olivia Owner' }).click();
  });

  test('deactivating a group asks first (this page cannot bring it back); its deactivated members are not listed', async () => {
    const gone = await env.server.createUser('Gus Gone');
    const stays = await env.server.createUser('Stella Stays');
    await env.server.ok('POST', '/api/v1/user_groups/create', { name: 'movers', description: '', members: JSON.stringify([gone.id, stays.id]) });
    await env.server.ok('DELETE', `/api/v1/users/${gone.id}`);
    await open(owner, '#organization/groups');
    const row = owner.page.getByRole('listitem').filter({ hasText: '@movers' });
    await row.getByText('1 member').waitFor();
    await row.getByRole('button', { name: 'Edit group movers' }).click();
    const edit = owner.page.getByRole('group', { name: 'Edit group movers' });
    await edit.getByRole('button', { name: 'Remove Stella Stays from movers' }).waitFor();
    assert.equal(await edit.getByText('Gus Gone').count(), 0);

    await edit.getByRole('button', { name: 'Deactivate group' }).click();
    await edit.getByRole('alert').getByText('Deactivate @movers?').waitFor();
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await edit.getByRole('button', { name: 'Deactivate group' }).click();
    await edit.getByRole('button', { name: 'Confirm deactivation' }).click();
    await row.waitFor({ state: 'detached' });
    // The button went with the group: the focus stays in the overlay, on its page's title.
    await until('the focus on the title', () => owner.page.getByRole('heading', { name: 'User groups', level: 2 }).evaluate((h) => h === document.activeElement));
  });

  test('nested groups offer people-sets only (no "Nobody", no "Everyone on the Internet")', async () => {
    await open(owner, '#organization/groups');
    await owner.page.getByRole('textbox', { name: 'Group name' }).fill('devs');
    await owner.page.getByRole('button', { name: 'Create group' }).click();
    await owner.page.getByRole('button', { name: 'Edit group devs' }).click();
    const options = await owner.page.getByRole('combobox', { name: 'Add a group' }).locator('option').allTextContents();
    assert.ok(options.some((o) => /Administrators/.test(o)), options.join(' | '));
    assert.ok(!options.some((o) => /Nobody|Internet/.test(o)), options.join(' | '));
  });

  test("a list field's choices, required and editability are edited; the member's profile follows live and keeps their choice", async () => {
    await open(owner, '#organization/profile-fields');
    await owner.page.getByRole('combobox', { name: 'Type' }).selectOption({ label: 'List of options' });
    await owner.page.getByRole('textbox', { name: 'Label' }).fill('Office');
    await owner.page.getByRole('textbox', { name: 'Choices, one a line' }).fill('Paris\nLima');
    await owner.page.getByRole('button', { name: 'Add field' }).click();

    await open(mia, '#settings/profile');
    const office = mia.page.getByRole('combobox', { name: /^Office/ });
    await office.selectOption({ label: 'Lima' });
    await until('the choice saved', async () => JSON.stringify((await env.server.ok('GET', `/api/v1/users/${miaId}?include_custom_profile_fields=true`)).user).includes('"value":"1"'));

    await owner.page.getByRole('button', { name: 'Edit field Office' }).click();
    const edit = owner.page.getByRole('group', { name: 'Edit field Office' });
    const choices = edit.getByRole('textbox', { name: 'Choices, one a line' });
    const saveChoices = edit.getByRole('button', { name: 'Save choices, one a line' });
    // The field's own event (Mia's choice, the added field) may still redraw the editor with the
    // saved value after the fill: fill again until Save takes the change.
    await until('the edit of the choices to take', async () => {
      if ((await choices.inputValue()) !== 'Lima\nOslo') await choices.fill('Lima\nOslo');
      return saveChoices.isEnabled();
    });
    await saveChoices.click();
    await until("the member's options to follow", async () => (await office.locator('option').allTextContents()).join(',') === 'Not set,Lima,Oslo');
    assert.equal(await office.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent), 'Lima');

    await edit.getByRole('checkbox', { name: 'Required' }).check();
    await mia.page.getByRole('combobox', { name: 'Office (required)' }).waitFor();
    await edit.getByRole('checkbox', { name: 'People can change their own value' }).uncheck();
    await until('the member to be locked out of the field', () => mia.page.getByRole('combobox', { name: 'Office (required)' }).isDisabled());
  });

  test('removing a profile field asks first, since what everyone entered in it goes too', async () => {
    await env.server.ok('POST', '/api/v1/realm/profile_fields', { name: 'Shoe size', field_type: 1, hint: '' });
    await open(owner, '#organization/profile-fields');
    const row = owner.page.getByRole('listitem').filter({ hasText: 'Shoe size' });
    await row.getByRole('button', { name: 'Remove field Shoe size' }).click();
    const ask = row.getByRole('alert');
    await ask.getByText('Remove Shoe size? What everyone entered in it is deleted too.').waitFor();
    // Nothing is gone yet, and Cancel keeps it.
    assert.ok(((await env.server.ok('GET', '/api/v1/realm/profile_fields')).custom_fields as { name: string }[]).some((f) => f.name === 'Shoe size'));
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    await row.getByRole('button', { name: 'Remove field Shoe size' }).click();
    await row.getByRole('button', { name: 'Confirm removal' }).click();
    await row.waitFor({ state: 'detached' });
    await until('the focus on the title', () => owner.page.getByRole('heading', { name: 'Custom profile fields', level: 2 }).evaluate((h) => h === document.activeElement));
    assert.ok(!((await env.server.ok('GET', '/api/v1/realm/profile_fields')).custom_fields as { name: string }[]).some((f) => f.name === 'Shoe size'));
  });

  test('the status emoji is chosen from the emoji picker; Escape in the picker closes only the picker', async () => {
    await open(mia, '#settings/profile');
    const choose = mia.page.getByRole('button', { name: 'Choose emoji' });
    await choose.click();
    const picker = mia.page.getByRole('dialog', { name: 'Choose a status emoji' });
    await picker.getByRole('searchbox').or(picker.getByRole('textbox')).first().waitFor();
    await mia.page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
    assert.equal(await mia.page.getByRole('dialog', { name: 'Personal settings' }).count(), 1);

    await choose.click();
    await mia.page.keyboard.type('palm_tree');
    await picker.getByRole('button', { name: 'palm_tree', exact: true }).click();
    assert.equal(await mia.page.getByRole('textbox', { name: 'Status emoji' }).inputValue(), 'palm_tree');
    await mia.page.getByRole('textbox', { name: 'Status text' }).fill('On holiday');
    await mia.page.getByRole('button', { name: 'Set status' }).click();
    await until('the status saved', async () => {
      const all = (await env.server.ok('GET', `/api/v1/users/${miaId}/status`)).status as { emoji_name?: string; status_text?: string };
      return all.emoji_name === 'palm_tree' && all.status_text === 'On holiday';
    });
  });

  test('a muted topic is unmuted from Notifications and the unmuting undone', async () => {
    await asMia('POST', '/user_topics', { stream_id: String(generalId), topic: 'audit', visibility_policy: '1' });
    await open(mia, '#settings/notifications');
    const section = mia.page.getByRole('region', { name: 'Muted topics' });
    await section.getByRole('button', { name: 'Unmute topic audit' }).click();
    await section.getByText('No muted topics.').waitFor();
    await section.getByRole('button', { name: 'Undo' }).click();
    await section.getByRole('button', { name: 'Unmute topic audit' }).waitFor();
    const topics = (await mia.page.evaluate(() => fetch('/json/register', { method: 'POST', headers: { 'X-CSRFToken': document.cookie.match(/parley_csrf=([^;]+)/)?.[1] ?? '' }, body: new URLSearchParams({ fetch_event_types: '["user_topic"]' }) }).then((r) => r.json()))) as { user_topics: { topic_name: string; visibility_policy: number }[] };
    assert.deepEqual(topics.user_topics.map((t) => [t.topic_name, t.visibility_policy]), [['audit', 1]]);
  });

  test("streams administered by the owner reach the member's sidebar: subscribed, then archived", async () => {
    await open(owner, '#organization/streams');
    await owner.page.getByRole('textbox', { name: 'Stream name' }).fill('ops');
    await owner.page.getByRole('button', { name: 'Create stream' }).click();
    await owner.page.getByRole('button', { name: 'Edit stream ops' }).click();
    const edit = owner.page.getByRole('group', { name: 'Edit stream ops' });
    await edit.getByRole('combobox', { name: 'Subscribe someone' }).selectOption({ label: 'Mia Member' });
    const side = mia.page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^ops/ });
    await side.waitFor();
    await edit.getByRole('button', { name: 'Unsubscribe Mia Member' }).waitFor();
    // Mia leaves on her own: the owner's open subscriber list follows.
    await asMia('DELETE', '/users/me/subscriptions', { subscriptions: '["ops"]' });
    await edit.getByRole('button', { name: 'Unsubscribe Mia Member' }).waitFor({ state: 'detached' });
    await side.waitFor({ state: 'detached' });
    await edit.getByRole('combobox', { name: 'Subscribe someone' }).selectOption({ label: 'Mia Member' });
    await side.waitFor();
    await edit.getByRole('checkbox', { name: 'Default stream for new members' }).check();
    await owner.page.getByRole('listitem').filter({ hasText: 'ops' }).getByText('default', { exact: true }).waitFor();
    await edit.getByRole('button', { name: 'Archive stream' }).click();
    await owner.page.getByRole('button', { name: 'Confirm archiving' }).click();
    await side.waitFor({ state: 'detached' });
    await owner.page.getByRole('button', { name: 'Edit stream ops' }).waitFor({ state: 'detached' });
  });

  test("the Streams list counts each stream's subscribers, live as people join and leave", async () => {
    await env.server.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'tally' }] });
    // From the main view: the last test may have left this very page open, where a hash change does nothing.
    await owner.page.evaluate(() => (location.hash = '#feed'));
    await owner.page.getByRole('dialog', { name: /settings/ }).waitFor({ state: 'detached' });
    await open(owner, '#organization/streams');
    const row = owner.page.getByRole('listitem').filter({ has: owner.page.getByRole('button', { name: 'Edit stream tally' }) });
    await row.getByText('1 subscriber', { exact: true }).waitFor();
    await env.server.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'tally' }], principals: [MIA.email] });
    await row.getByText('2 subscribers', { exact: true }).waitFor();
    await asMia('DELETE', '/users/me/subscriptions', { subscriptions: '["tally"]' });
    await row.getByText('1 subscriber', { exact: true }).waitFor();
  });

  test("the bot creation policy changes the member's Add a bot form live", async () => {
    await open(mia, '#settings/account');
    const type = mia.page.getByRole('combobox', { name: 'Bot type' });
    assert.deepEqual(await type.locator('option').allTextContents(), ['Generic bot', 'Incoming webhook']);
    await open(owner, '#organization/settings');
    const policy = owner.page.getByRole('combobox', { name: 'Who can create bots' });
    await policy.selectOption({ label: 'Everyone, but only administrators add generic bots' });
    await until('only webhooks offered', async () => (await type.locator('option').allTextContents()).join() === 'Incoming webhook');
    await policy.selectOption({ label: 'Administrators' });
    await mia.page.getByText('only administrators add bots').waitFor();
    assert.equal(await mia.page.getByRole('button', { name: 'Create bot' }).count(), 0);
    await policy.selectOption({ label: 'Everyone' });
    await mia.page.getByRole('button', { name: 'Create bot' }).waitFor();
  });

  test("a stream's posting policy and required topics change the member's compose box live", async () => {
    await mia.page.evaluate(() => (location.hash = '#feed'));
    await mia.page.getByRole('dialog', { name: /settings/ }).waitFor({ state: 'detached' });
    await mia.page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^general/ }).click();
    await mia.page.getByRole('button', { name: 'New topic' }).click();
    const send = mia.page.getByRole('button', { name: 'Send', exact: true });
    await mia.page.getByRole('textbox', { name: 'Message' }).fill('hello');
    assert.equal(await send.isDisabled(), false);

    await open(owner, '#organization/streams');
    await owner.page.getByRole('button', { name: 'Edit stream general' }).click();
    const edit = owner.page.getByRole('group', { name: 'Edit stream general' });
    await edit.getByRole('combobox', { name: 'Who can post' }).selectOption({ label: 'Administrators only' });
    await mia.page.getByRole('status').filter({ hasText: 'Only administrators can post in #general.' }).waitFor();
    assert.equal(await send.isDisabled(), true);
    await edit.getByRole('combobox', { name: 'Who can post' }).selectOption({ label: 'Everyone' });
    await until('Send to come back', async () => !(await send.isDisabled()));

    await env.server.ok('PATCH', '/api/v1/realm', { mandatory_topics: true });
    await mia.page.getByRole('status').filter({ hasText: 'Topics are required' }).waitFor();
    await mia.page.getByRole('combobox', { name: 'Topic' }).or(mia.page.getByRole('textbox', { name: 'Topic' })).first().fill('lunch');
    await until('the notice to go with a topic', async () => !(await send.isDisabled()));
    await env.server.ok('PATCH', '/api/v1/realm', { mandatory_topics: false });
    await mia.page.getByRole('button', { name: 'Close compose' }).click();
  });

  test('the login page leads to "Forgot your password?" and to sign-up, which says an invitation is needed', async () => {
    const context = await newContext(env, { width: 390, height: 844 });
    const page = await context.newPage();
    await page.goto(`${env.url}/`);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    // It names the organization, as the sign-up and reset pages do.
    const realmName = (await env.server.ok('GET', '/api/v1/server_settings')).realm_name as string;
    await page.getByRole('heading', { name: `Log in to ${realmName}` }).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('button', { name: 'Send reset link' }).waitFor();
    await page.goBack();
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByText('requires an invitation').waitFor();
    await context.close();
  });

  test('axe-core: no serious or critical violation on Your streams (member) and Organization settings (owner)', async () => {
    await open(mia, '#settings/streams');
    await mia.page.getByRole('heading', { name: 'Your streams', level: 2 }).waitFor();
    await open(owner, '#organization/settings');
    await owner.page.getByRole('form', { name: 'Add an email domain' }).waitFor();
    assert.deepEqual([...(await axeViolations(mia.page)), ...(await axeViolations(owner.page))], []);
  });
});
