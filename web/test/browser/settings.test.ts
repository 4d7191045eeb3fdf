// Settings and organization administration in a real Chromium against a real server: an
// administrator and a member in two browser contexts. The administrator's changes reach the
// member live; a member's display setting follows in their second tab; members cannot see the
// organization's settings, except User groups and the Invitations page when the invite policy lets them invite
// (it follows the policy live); the overlay takes the keys from the moment it appears; a refused
// value shows the server's message and changes nothing; axe-core finds no serious or critical violation on any section. Found by role and name only.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, browserSkipReason, logIn, setUp, twoPeople, until, type Env, type Person } from './harness.ts';
import type { Account } from '../../../test/helpers/server.ts';

const skip = browserSkipReason();
if (skip) console.log(`# browser tests skipped: ${skip}`);

const PERSONAL = ['profile', 'account', 'preferences', 'notifications'];
const ORGANIZATION = ['profile', 'settings', 'users', 'streams', 'emoji', 'linkifiers', 'profile-fields', 'groups', 'bots'];

describe('settings and administration', { skip: skip ?? false }, () => {
  let env: Env;
  let bobAccount: Account;
  let ada: Person;
  let bob: Person;

  before(async () => {
    env = await setUp();
    ({
      accounts: [, bobAccount],
      people: [ada, bob],
    } = await twoPeople(env, {
      names: ['Ada', 'Bob'],
      roles: [200, undefined],
      streams: ['general'],
      beforeLogIn: () => env.server.ok('POST', '/api/v1/realm/profile_fields', { name: 'Team', field_type: 1, hint: '' }),
    }));
  });

  after(async () => {
    await env?.close();
  });

  /** Opens a settings URL and waits until the overlay holds the keyboard focus (so keys reach it). */
  const open = async (p: Person, hash: string) => {
    await p.page.evaluate((h) => (location.hash = h), hash);
    await p.page.getByRole('dialog', { name: /settings/ }).waitFor();
    await p.page.waitForFunction(() => document.activeElement?.closest('[role=dialog]') != null);
  };

  /** Opens the personal menu and waits until its first item has the focus (arrows and Escape act on it). */
  const openMenu = async (p: Person) => {
    await p.page.getByRole('button', { name: 'Personal menu' }).click();
    await p.page.waitForFunction(() => document.activeElement?.closest('[role=menu]') != null);
    return p.page.getByRole('menu', { name: 'Personal menu' });
  };

  test('a member has no organization settings when the invite policy leaves them out: not in the menu, and the URL says no', async () => {
    // Members may invite by default, which opens the Invitations page to them: the owner
    // narrows the policy to administrators, and Bob's menu follows (an event, a moment later).
    await env.server.ok('PATCH', '/api/v1/realm', { invite_to_realm_policy: 2 });
    const menu = await openMenu(bob);
    await menu.getByRole('menuitem', { name: 'Personal settings' }).waitFor();
    await menu.getByRole('menuitem', { name: 'Invite people' }).waitFor({ state: 'detached' });
    assert.equal(await menu.getByRole('menuitem', { name: 'Organization settings' }).count(), 0);
    await bob.page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });

    await open(bob, '#organization/settings');
    await bob.page.getByText("Only the organization's administrators can change this.").waitFor();
    assert.equal(await bob.page.getByRole('combobox', { name: 'Who can create public streams' }).count(), 0);
    const nav = bob.page.getByRole('navigation', { name: 'Settings sections' });
    assert.equal(await nav.getByRole('link', { name: 'Users', exact: true }).count(), 0);
    assert.equal(await nav.getByRole('link', { name: 'Invitations' }).count(), 0);
    await open(bob, '#organization/invitations');
    await bob.page.getByText("Only the organization's administrators can change this.").waitFor();
    assert.equal(await bob.page.getByRole('button', { name: 'Create invite link' }).count(), 0);
    // Escape goes back to the narrow underneath.
    await bob.page.keyboard.press('Escape');
    await bob.page.getByRole('dialog', { name: /settings/ }).waitFor({ state: 'detached' });
    await bob.page.getByRole('navigation', { name: 'Streams', exact: true }).waitFor();
  });

  test('when the owner lets members invite again, the member gets "Invite people" live, and only the Invitations and User groups pages', async () => {
    await env.server.ok('PATCH', '/api/v1/realm', { invite_to_realm_policy: 1 });
    const menu = await openMenu(bob);
    await menu.getByRole('menuitem', { name: 'Invite people' }).click();
    await bob.page.getByRole('button', { name: 'Create invite link' }).waitFor();
    const nav = bob.page.getByRole('navigation', { name: 'Settings sections' });
    assert.deepEqual(await nav.getByRole('list', { name: 'Organization' }).getByRole('link').allInnerTexts(), ['User groups', 'Invitations']);
    await bob.page.keyboard.press('Escape');
    await bob.page.getByRole('dialog', { name: /settings/ }).waitFor({ state: 'detached' });
  });

  test('Escape pressed at the moment the overlay appears closes it (no gap before the keys reach it)', async () => {
    // The key goes to whatever has the focus in the same task in which the dialog enters the
    // page, before any frame is painted: the overlay must already hold the focus and its keys.
    const seen = await bob.page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const observer = new MutationObserver(() => {
            const dialog = document.querySelector('[role=dialog]');
            if (!dialog) return;
            observer.disconnect();
            const focused = document.activeElement;
            (focused ?? document.body).dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
            resolve(dialog.contains(focused) ? 'focus in the dialog' : `focus on ${focused?.outerHTML.slice(0, 60)}`);
          });
          observer.observe(document.body, { childList: true, subtree: true });
          location.hash = '#settings/notifications';
        }),
    );
    assert.equal(seen, 'focus in the dialog');
    await bob.page.getByRole('dialog', { name: /settings/ }).waitFor({ state: 'detached' });
  });

  test("the administrator's changes reach the member live", async () => {
    const menu = await openMenu(ada);
    await menu.getByRole('menuitem', { name: 'Organization settings' }).click();
    await ada.page.getByRole('heading', { name: 'Organization profile' }).waitFor();
    await ada.page.getByRole('textbox', { name: 'Organization name' }).fill('Acme Chat');
    await ada.page.getByRole('button', { name: 'Save organization name' }).click();
    await bob.page.getByRole('link', { name: 'Acme Chat' }).waitFor();

    // A policy: names locked, and the member's name box turns read-only in front of them.
    await open(bob, '#settings/profile');
    const bobName = bob.page.getByRole('textbox', { name: 'Full name' });
    assert.equal(await bobName.isDisabled(), false);
    await ada.page.getByRole('link', { name: 'Organization settings' }).click();
    await ada.page.getByRole('checkbox', { name: 'Prevent people from changing their names' }).check();
    await until('the name box to lock', () => bobName.isDisabled());
    // The lock holds members back, not administrators (the server lets them): Ada's box stays open.
    await open(ada, '#settings/profile');
    const adaName = ada.page.getByRole('textbox', { name: 'Full name' });
    await adaName.waitFor();
    assert.equal(await adaName.isDisabled(), false);
    assert.equal(await ada.page.getByText('The organization does not allow changing names.').count(), 0);
    await open(ada, '#organization/settings');
    await ada.page.getByRole('checkbox', { name: 'Prevent people from changing their names' }).uncheck();
    await until('the name box to unlock', async () => !(await bobName.isDisabled()));
  });

  test('a time limit set to a value the menu does not offer shows in words, live', async () => {
    await open(ada, '#organization/settings');
    const limit = ada.page.getByRole('combobox', { name: 'Time limit for editing messages' });
    const shown = () => limit.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? '');
    try {
      await env.server.ok('PATCH', '/api/v1/realm', { message_content_edit_limit_seconds: 3 * 86400 });
      await until('the limit in words', async () => (await shown()) === '3 days');
    } finally {
      await env.server.ok('PATCH', '/api/v1/realm', { message_content_edit_limit_seconds: 600 });
    }
    await until('the usual limit back', async () => (await shown()) === '10 minutes');
  });

  test("a member's display settings follow in their second tab", async () => {
    const second = await bob.context.newPage();
    await second.goto(env.url + '/');
    await second.getByRole('navigation', { name: 'Streams', exact: true }).waitFor();
    await open(bob, '#settings/preferences');
    await bob.page.getByRole('combobox', { name: 'Theme' }).selectOption({ label: 'Dark' });
    await second.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await bob.page.getByRole('combobox', { name: 'Time format' }).selectOption({ label: '24-hour clock (17:00)' });
    // The second tab's own settings page shows the new value, from the event.
    await second.evaluate(() => (location.hash = '#settings/preferences'));
    const format = second.getByRole('combobox', { name: 'Time format' });
    await format.waitFor();
    await until('the second tab to show 24-hour time', async () => /24-hour/.test((await format.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent)) ?? ''));
    await bob.page.getByRole('combobox', { name: 'Theme' }).selectOption({ label: 'Light' });
    await second.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    await second.close();
  });

  test('a refused value shows the server message and changes nothing', async () => {
    await open(ada, '#organization/profile');
    const name = ada.page.getByRole('textbox', { name: 'Organization name' });
    await name.fill('   ');
    await ada.page.getByRole('button', { name: 'Save organization name' }).click();
    await ada.page.getByRole('alert').filter({ hasText: /empty/i }).waitFor();
    const realm = await env.server.ok('GET', '/api/v1/server_settings');
    assert.equal(realm.realm_name, 'Acme Chat');

    await open(bob, '#settings/account');
    await bob.page.getByRole('textbox', { name: 'Old password' }).fill('not my password');
    await bob.page.getByRole('textbox', { name: 'New password' }).fill('a-new-password-1');
    await bob.page.getByRole('button', { name: 'Change password' }).click();
    await bob.page.getByRole('alert').filter({ hasText: /wrong password/i }).waitFor();
    // The old password still works.
    await env.server.ok('POST', '/api/v1/fetch_api_key', { username: bobAccount.email, password: bobAccount.password! });
  });

  test('a users profile field takes people from a menu of the others and lets them go', async () => {
    await env.server.ok('POST', '/api/v1/realm/profile_fields', { name: 'Mentors', field_type: 6, hint: '' });
    await open(bob, '#settings/profile');
    const menu = bob.page.getByRole('combobox', { name: 'Mentors' });
    await menu.selectOption({ label: 'Ada' });
    const remove = bob.page.getByRole('button', { name: 'Remove Ada from Mentors' });
    await remove.waitFor();
    // Chosen people leave the menu, which goes back to its placeholder.
    assert.equal(await menu.locator('option', { hasText: 'Ada' }).count(), 0);
    assert.equal(await menu.inputValue(), '');
    await remove.click();
    await remove.waitFor({ state: 'detached' });
    await menu.locator('option', { hasText: 'Ada' }).waitFor({ state: 'attached' });
  });

  test('an administrator adds a custom emoji with a preview, tests a linkifier before adding it, and edits it', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    await open(ada, '#organization/emoji');
    await ada.page.getByRole('textbox', { name: 'Emoji name' }).fill('parrot');
    await ada.page.getByLabel('Emoji image').setInputFiles({ name: 'parrot.png', mimeType: 'image/png', buffer: png });
    await ada.page.getByRole('img', { name: 'Preview of :parrot:' }).waitFor();
    await ada.page.getByRole('button', { name: 'Add emoji' }).click();
    await ada.page.getByRole('button', { name: 'Remove emoji parrot' }).click();
    await ada.page.getByRole('button', { name: 'Confirm removal' }).click();
    await ada.page.getByRole('button', { name: 'Remove emoji parrot' }).waitFor({ state: 'detached' });
    // Its button went with it: the focus stays in the overlay, on the page's title.
    await until('the focus on the title', () => ada.page.getByRole('heading', { name: 'Custom emoji', level: 2 }).evaluate((h) => h === document.activeElement));

    await open(ada, '#organization/linkifiers');
    await ada.page.getByRole('textbox', { name: 'Pattern', exact: true }).fill('#(?P<id>[0-9]+)');
    await ada.page.getByRole('textbox', { name: 'URL template' }).fill('https://example.com/issues/{id}');
    await ada.page.getByRole('textbox', { name: 'Test the pattern on sample text' }).fill('Fixed in #123');
    await ada.page.getByRole('status').filter({ hasText: 'https://example.com/issues/123' }).waitFor();
    await ada.page.getByRole('button', { name: 'Add linkifier' }).click();
    await ada.page.getByRole('button', { name: 'Remove linkifier #(?P<id>[0-9]+)' }).waitFor();

    // Edited in place: a refused pattern shows the server's message and changes nothing; a good one replaces both.
    await ada.page.getByRole('button', { name: 'Edit linkifier #(?P<id>[0-9]+)' }).click();
    const edit = ada.page.getByRole('group', { name: 'Edit linkifier #(?P<id>[0-9]+)' });
    await edit.getByRole('textbox', { name: 'Pattern' }).fill('#(?P<id>[0-9]+');
    await edit.getByRole('button', { name: 'Save linkifier' }).click();
    await edit.getByRole('alert').filter({ hasText: /Invalid linkifier pattern/ }).waitFor();
    assert.deepEqual(await axeViolations(ada.page), []);
    assert.equal(((await env.server.ok('GET', '/api/v1/realm/linkifiers')).linkifiers as { pattern: string }[])[0]?.pattern, '#(?P<id>[0-9]+)');
    await edit.getByRole('textbox', { name: 'Pattern' }).fill('PR-(?P<id>[0-9]+)');
    await edit.getByRole('textbox', { name: 'URL template' }).fill('https://example.com/pulls/{id}');
    await edit.getByRole('button', { name: 'Save linkifier' }).click();
    await edit.waitFor({ state: 'detached' });
    await ada.page.getByRole('button', { name: 'Remove linkifier PR-(?P<id>[0-9]+)' }).waitFor();
    await ada.page.getByRole('listitem').filter({ hasText: 'https://example.com/pulls/{id}' }).waitFor();
    assert.deepEqual(
      ((await env.server.ok('GET', '/api/v1/realm/linkifiers')).linkifiers as { pattern: string; url_template: string }[]).map((l) => [l.pattern, l.url_template]),
      [['PR-(?P<id>[0-9]+)', 'https://example.com/pulls/{id}']],
    );
    await ada.page.getByRole('button', { name: 'Remove linkifier PR-(?P<id>[0-9]+)' }).click();
    await ada.page.getByRole('button', { name: 'Confirm removal' }).click();
    await ada.page.getByText('No linkifiers yet.').waitFor();
    await until('the focus on the title', () => ada.page.getByRole('heading', { name: 'Linkifiers', level: 2 }).evaluate((h) => h === document.activeElement));
  });

  test("the sidebar's stream names look the same after Your streams was open", async () => {
    await bob.page.evaluate(() => (location.hash = '#inbox'));
    const general = bob.page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^general/ });
    const weight = () => general.evaluate((el) => getComputedStyle(el).fontWeight);
    const before = await weight();
    await open(bob, '#settings/streams');
    await bob.page.getByRole('heading', { name: 'Your streams', level: 2 }).waitFor();
    await bob.page.keyboard.press('Escape');
    await bob.page.getByRole('dialog', { name: /settings/ }).waitFor({ state: 'detached' });
    assert.equal(await weight(), before);
  });

  test('Your streams sets a subscribed stream\'s colour, which its sidebar swatch takes, and mutes it', async () => {
    await open(bob, '#settings/streams');
    const overlay = bob.page.getByRole('dialog', { name: /settings/ });
    const sub = async () => ((await env.server.ok('GET', '/api/v1/users/me/subscriptions', undefined, bobAccount)).subscriptions as { name: string; color: string; is_muted: boolean }[]).find((s) => s.name === 'general')!;
    await overlay.getByLabel('Colour of #general', { exact: true }).fill('#aa3355');
    await until('the colour saved', async () => (await sub()).color === '#aa3355');
    const swatch = () => bob.page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^general/ }).evaluate((el) => getComputedStyle(el.querySelector('[aria-hidden=true]')!).backgroundColor);
    await until('the sidebar swatch in the new colour', async () => (await swatch()) === 'rgb(170, 51, 85)');
    const mute = overlay.getByRole('checkbox', { name: 'Mute #general', exact: true });
    await mute.check();
    await until('the stream muted', async () => (await sub()).is_muted);
    await mute.uncheck();
    await until('the stream unmuted', async () => !(await sub()).is_muted);
    await bob.page.keyboard.press('Escape');
    await overlay.waitFor({ state: 'detached' });
  });

  test('a stream opened from Your streams without a subscription says so and is joined from its view', async () => {
    await env.server.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'random' }] });
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'random', topic: 'cats', content: 'Cat pictures go here' });
    await open(bob, '#settings/streams');
    await bob.page.getByRole('dialog', { name: /settings/ }).getByRole('link', { name: '#random' }).click();
    await bob.page.getByRole('article').filter({ hasText: 'Cat pictures go here' }).waitFor();
    const bar = bob.page.getByRole('main');
    await bar.getByText('You are not subscribed to this stream.').waitFor();
    assert.deepEqual(await axeViolations(bob.page), []);
    await bar.getByRole('button', { name: 'Subscribe to random' }).click();
    await bob.page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^random/ }).waitFor();
    await bar.getByRole('button', { name: 'Subscribe to random' }).waitFor({ state: 'detached' });
    assert.equal(await bar.getByText('You are not subscribed to this stream.').count(), 0);
  });

  test("every settings section's URL opens that section, and the reference's other names of them too", async () => {
    const urls: [string, string, string][] = [
      ['#settings/profile', 'Profile', '#settings/profile'],
      ['#settings/account', 'Account and privacy', '#settings/account'],
      ['#settings/preferences', 'Preferences', '#settings/preferences'],
      ['#settings/notifications', 'Notifications', '#settings/notifications'],
      ['#settings/streams', 'Your streams', '#settings/streams'],
      ['#settings/display', 'Preferences', '#settings/preferences'],
      ['#settings/display-settings', 'Preferences', '#settings/preferences'],
      ['#settings/account-and-privacy', 'Account and privacy', '#settings/account'],
      ['#settings', 'Profile', '#settings/profile'],
      ['#organization/profile', 'Organization profile', '#organization/profile'],
      ['#organization/settings', 'Organization settings', '#organization/settings'],
      ['#organization/users', 'Users', '#organization/users'],
      ['#organization/streams', 'Streams', '#organization/streams'],
      ['#organization/emoji', 'Custom emoji', '#organization/emoji'],
      ['#organization/linkifiers', 'Linkifiers', '#organization/linkifiers'],
      ['#organization/profile-fields', 'Custom profile fields', '#organization/profile-fields'],
      ['#organization/groups', 'User groups', '#organization/groups'],
      ['#organization/bots', 'Bots', '#organization/bots'],
      ['#organization/invitations', 'Invitations', '#organization/invitations'],
      ['#organization/organization-settings', 'Organization settings', '#organization/settings'],
      ['#organization/user-groups-admin', 'User groups', '#organization/groups'],
    ];
    const wrong: string[] = [];
    for (const [url, title, canonical] of urls) {
      await open(ada, url);
      const dialog = ada.page.getByRole('dialog', { name: /settings/ });
      await dialog.getByRole('heading', { level: 2 }).filter({ hasText: /\S/ }).waitFor();
      const shown = await dialog.getByRole('heading', { level: 2 }).first().textContent();
      const current = await dialog.locator('a[aria-current=page]').textContent();
      const hash = await ada.page.evaluate(() => location.hash);
      if (shown !== title || current !== title || hash !== canonical) wrong.push(`${url}: shows ${shown}, marks ${current}, URL ${hash}`);
    }
    assert.deepEqual(wrong, []);
    await ada.page.keyboard.press('Escape');
    await ada.page.getByRole('dialog', { name: /settings/ }).waitFor({ state: 'detached' });
  });

  test('every settings section has no serious or critical axe violation', async () => {
    const failures: string[] = [];
    for (const [kind, sections] of [
      ['settings', PERSONAL],
      ['organization', ORGANIZATION],
    ] as const) {
      for (const section of sections) {
        await open(ada, `#${kind}/${section}`);
        await ada.page.locator(`a[href="#${kind}/${section}"][aria-current=page]`).waitFor();
        for (const v of await axeViolations(ada.page)) failures.push(`#${kind}/${section}: ${v}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  test('the notification sound is chosen by neutral names and can be heard from the page', async () => {
    await open(ada, '#settings/notifications');
    const sound = ada.page.getByRole('combobox', { name: 'Notification sound' });
    assert.equal(await sound.locator('option:checked').innerText(), 'Default');
    assert.ok(!(await sound.locator('option').allInnerTexts()).some((t) => /zulip/i.test(t)));
    const errors: string[] = [];
    ada.page.on('pageerror', (e) => errors.push(e.message));
    await ada.page.getByRole('button', { name: 'Play the sound' }).click();
    await ada.page.waitForTimeout(100);
    assert.deepEqual(errors, []);
  });

  test('on a phone the table of notifications per stream shows every column whole, even beside a long stream name', async () => {
    const cleo = await env.server.createUser('Cleo');
    await env.server.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'general' }, { name: 'announcementsandnews' }, { name: 'a-stream-with-a-long-name' }] }, cleo);
    const phone = await logIn(env, cleo.email, cleo.password!, { width: 390, height: 844 }, '#settings/notifications');
    const table = phone.page.getByRole('table', { name: 'Notifications per stream' });
    await table.getByRole('checkbox', { name: 'Mute #announcementsandnews' }).waitFor();
    for (const theme of ['light', 'dark']) {
      await phone.page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      if (process.env.PARLEY_BROWSER_SHOTS) await table.screenshot({ path: `${process.env.PARLEY_BROWSER_SHOTS}/notifications-table-phone-${theme}.png` });
    }
    // What shows of the table is the box it scrolls in, within the screen.
    const shown = await table.evaluate((t) => {
      const box = t.parentElement!.getBoundingClientRect();
      return { left: Math.max(box.left, 0), right: Math.min(box.right, window.innerWidth) };
    });
    const cut: string[] = [];
    for (const cell of [...(await table.getByRole('columnheader').all()), ...(await table.getByRole('checkbox').all())]) {
      const b = (await cell.boundingBox())!;
      if (b.x < shown.left - 0.5 || b.x + b.width > shown.right + 0.5) cut.push(`${(await cell.textContent()) || (await cell.getAttribute('aria-label'))} at ${Math.round(b.x)}-${Math.round(b.x + b.width)}`);
    }
    assert.deepEqual(cut, [], `shown from ${shown.left} to ${shown.right}`);
    await phone.context.close();
  });

  test('on a phone the overlay fills the screen and closes with its button', async () => {
    await ada.page.setViewportSize({ width: 390, height: 844 });
    await open(ada, '#settings/notifications');
    const box = await ada.page.getByRole('dialog', { name: 'Personal settings' }).boundingBox();
    assert.ok(box && box.width <= 390 && box.width >= 380, `overlay width ${box?.width}`);
    // Its sections are a row that scrolls sideways, fading at the edges: a tab cut there reads as more.
    const nav = ada.page.getByRole('navigation', { name: 'Settings sections' });
    const look = () => nav.evaluate((el) => ({ scrolls: el.scrollWidth > el.clientWidth, mask: getComputedStyle(el).maskImage }));
    const phone = await look();
    assert.equal(phone.scrolls, true);
    assert.match(phone.mask, /linear-gradient/);
    await ada.page.getByRole('button', { name: 'Close', exact: true }).click();
    await ada.page.getByRole('dialog', { name: /settings/ }).waitFor({ state: 'detached' });
    await ada.page.setViewportSize({ width: 1280, height: 800 });
    await open(ada, '#settings/notifications');
    assert.equal((await look()).mask, 'none');
    await ada.page.getByRole('button', { name: 'Close', exact: true }).click();
  });
});
