// The main view honours the display settings, live in every tab; DM recipients are pills; and
// what the web client had no browser test for: uploads by drag and drop and by paste, moving
// a topic, marking as unread. Alice has two tabs (one browser context), Bob and Carol one each.
// Elements are found by role, accessible name or text only; styles are read as computed.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axeViolations, browserSkipReason, logIn, setUp, shotsAfterTest, twoPeople, type Env, type Person } from './harness.ts';
import type { Account } from '../../../test/helpers/server.ts';

const skip = browserSkipReason();
if (skip) console.log(`# browser tests skipped: ${skip}`);

/** Polls a value of the page until it passes (a live change arrives by event, a moment later). */
async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what} (last value ${JSON.stringify(v)})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('display settings, recipient pills, uploads, moving and marking unread', { skip: skip ?? false }, () => {
  let env: Env;
  let aliceAccount: Account;
  let bobAccount: Account;
  let carolAccount: Account;
  let alice: Person;
  let bob: Person;
  /** Alice's second tab, in her first tab's browser context (same session). */
  let tab2: Page;
  let designId: number;

  before(async () => {
    env = await setUp();
    ({
      accounts: [aliceAccount, bobAccount],
      people: [alice, bob],
    } = await twoPeople(env, {
      names: ['Alice', 'Bob'],
      streams: ['general', 'design'],
      beforeLogIn: async (_, bobAccount) => {
        carolAccount = await env.server.createUser('Carol');
        await env.server.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'general' }, { name: 'design' }], principals: [carolAccount.email] });
        designId = (await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' })).stream_id as number;
        for (let i = 1; i <= 4; i++) await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'logo', content: `Logo idea ${i} :smile:` }, bobAccount);
        await env.server.ok('POST', '/api/v1/users/me/status', { status_text: 'On a train' }, bobAccount);
      },
    }));
    tab2 = await alice.context.newPage();
    // Wide enough that the full-width setting shows.
    await tab2.setViewportSize({ width: 1800, height: 900 });
    await tab2.goto(`${env.url}/#narrow/channel/${designId}-design/topic/logo`);
    await tab2.getByRole('article').filter({ hasText: 'Logo idea 4' }).waitFor();
  });

  after(async () => {
    await env?.close();
  });

  afterEach((t) => shotsAfterTest(t.name, { alice: alice?.page, 'alice-tab2': tab2, bob: bob?.page }));

  const preferences = async () => {
    await alice.page.evaluate(() => (location.hash = '#settings/preferences'));
    await alice.page.getByRole('dialog', { name: /settings/ }).waitFor();
  };
  const article = (page: Page, text: string) => page.getByRole('main').getByRole('article').filter({ hasText: text });
  const style = (page: Page, text: string, prop: string) => article(page, text).evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), prop);

  test('dense mode, full width and high contrast changed in one tab change the main view of the second tab', async () => {
    await preferences();
    // Dense is the default: tighter rows and a smaller font than normal spacing.
    const densePad = await style(tab2, 'Logo idea 1', 'padding-top');
    const denseFont = await style(tab2, 'Logo idea 1', 'font-size');
    await alice.page.getByRole('checkbox', { name: 'Dense mode' }).uncheck();
    const normalPad = await until('normal spacing', () => style(tab2, 'Logo idea 1', 'padding-top'), (v) => v !== densePad);
    assert.ok(parseFloat(normalPad) > parseFloat(densePad), `padding ${densePad} (dense) → ${normalPad} (normal)`);
    assert.ok(parseFloat(await style(tab2, 'Logo idea 1', 'font-size')) > parseFloat(denseFont));

    // Fixed width leaves the sides of a 1800-pixel window empty; full width uses them.
    const fixed = (await tab2.getByRole('main').boundingBox())!.width;
    await alice.page.getByRole('checkbox', { name: 'Use the full width on a wide screen' }).check();
    const fluid = await until('a wider message column', async () => (await tab2.getByRole('main').boundingBox())!.width, (w) => w > fixed + 300);
    assert.ok(fluid > fixed, `message column ${fixed}px → ${fluid}px`);

    const color = () => tab2.getByRole('main').evaluate((el) => getComputedStyle(el).color);
    const before = await color();
    await alice.page.getByRole('checkbox', { name: 'High contrast mode' }).check();
    await until('black text', color, (c) => c === 'rgb(0, 0, 0)' && c !== before);
    assert.deepEqual(await axeViolations(tab2), []);
    await alice.page.getByRole('checkbox', { name: 'High contrast mode' }).uncheck();
    await until('the usual text colour', color, (c) => c === before);
  });

  test('user list style, starred count, plain-text emoji and reaction names follow in the second tab', async () => {
    const users = tab2.getByRole('complementary', { name: 'Users' });
    const bobButton = users.getByRole('button', { name: /Bob/ });
    // "With status" is the default: the status shows, the avatar does not.
    await bobButton.getByText('On a train').waitFor();
    assert.equal(await bobButton.getByText('B', { exact: true }).isVisible(), false);
    const listStyle = alice.page.getByRole('combobox', { name: 'User list style' });
    await listStyle.selectOption({ label: 'Compact' });
    await bobButton.getByText('On a train').waitFor({ state: 'hidden' });
    await listStyle.selectOption({ label: 'With avatar and status' });
    await bobButton.getByText('B', { exact: true }).waitFor({ state: 'visible' });
    await bobButton.getByText('On a train').waitFor({ state: 'visible' });

    const idea1 = article(tab2, 'Logo idea 1');
    const starred = tab2.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^Starred/ });
    await env.server.ok('POST', '/api/v1/messages/flags', { messages: [Number(await idea1.getAttribute('data-id'))], op: 'add', flag: 'starred' }, aliceAccount);
    await starred.getByLabel('1 starred').waitFor();
    await alice.page.getByRole('checkbox', { name: 'Show counts for starred messages' }).uncheck();
    await starred.getByLabel('1 starred').waitFor({ state: 'detached' });

    assert.doesNotMatch(await idea1.innerText(), /:smile:/);
    await alice.page.getByRole('combobox', { name: 'Emoji set' }).selectOption({ label: 'Plain text' });
    await idea1.getByText('Logo idea 1 :smile:').waitFor();

    // Few reactions name who reacted; without the setting they are counted.
    await env.server.ok('POST', `/api/v1/messages/${await idea1.getAttribute('data-id')}/reactions`, { emoji_name: 'tada' }, bobAccount);
    const reaction = idea1.getByRole('button', { name: 'tada: 1' });
    await until('a reaction naming Bob', () => reaction.innerText(), (t) => t.includes('Bob'));
    await alice.page.getByRole('checkbox', { name: 'Show who reacted in reactions' }).uncheck();
    await until('a counted reaction', () => reaction.innerText(), (t) => /1$/.test(t.trim()) && !t.includes('Bob'));
    // The text emoji set shows reactions as text too.
    assert.match(await reaction.innerText(), /:tada:/);
    await alice.page.getByRole('combobox', { name: 'Emoji set' }).selectOption({ label: 'Google' });
    await until('the emoji as a picture again', () => idea1.innerText(), (t) => !t.includes(':smile:'));
  });

  test('with "never mark read on scroll" a new message stays unread until "Mark as read"', async () => {
    await alice.page.getByRole('combobox', { name: 'Mark messages read on scroll' }).selectOption({ label: 'Never' });
    // Published before Bob sends: the second tab's queue then has the setting's event before the message's.
    const published = async () => env.server.published.some(({ event }) => event.type === 'user_settings' && event.property === 'web_mark_read_on_scroll_policy' && event.value === 3);
    await until('the setting to be published', published, (v) => v);
    await tab2.bringToFront();
    await until('the second tab to have the focus', () => tab2.evaluate(() => document.hasFocus()), (v) => v);
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'logo', content: 'Unread on screen' }, bobAccount);
    await article(tab2, 'Unread on screen').waitFor();
    const topicLink = tab2.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^logo/ });
    await topicLink.getByLabel('1 unread').waitFor();
    // The tab's count follows desktop_icon_count_display: all unread messages, or none.
    await until('the count in the title', () => tab2.title(), (t) => t.startsWith('(1) '));
    await env.server.ok('PATCH', '/api/v1/settings', { desktop_icon_count_display: 3 }, aliceAccount);
    await until('a title without a count', () => tab2.title(), (t) => !t.startsWith('('));
    await env.server.ok('PATCH', '/api/v1/settings', { desktop_icon_count_display: 1 }, aliceAccount);
    await tab2.getByRole('button', { name: 'Mark as read' }).click();
    await topicLink.getByLabel('1 unread').waitFor({ state: 'detached' });
    await tab2.getByRole('button', { name: 'Mark as read' }).waitFor({ state: 'detached' });
    await alice.page.getByRole('combobox', { name: 'Mark messages read on scroll' }).selectOption({ label: 'Always' });
    await alice.page.keyboard.press('Escape');
    await alice.page.getByRole('dialog', { name: /settings/ }).waitFor({ state: 'detached' });
  });

  test('a file dropped on compose and an image pasted into the message box are uploaded and linked', async () => {
    const page = alice.page;
    await page.bringToFront();
    await page.goto(`${env.url}/#narrow/channel/${designId}-design/topic/files`);
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.waitFor();
    const drop = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['dropped text'], 'dropped.txt', { type: 'text/plain' }));
      return dt;
    });
    const composeRegion = page.getByRole('region', { name: 'Compose' });
    await composeRegion.dispatchEvent('dragover', { dataTransfer: drop });
    await composeRegion.dispatchEvent('drop', { dataTransfer: drop });
    await until('the dropped file linked', () => box.inputValue(), (v) => /\[dropped\.txt\]\(\/user_uploads\/.+dropped\.txt\)/.test(v));

    // A pasted image (as a screenshot tool puts it on the clipboard: a file without a name).
    await box.evaluate((el) => {
      const dt = new DataTransfer();
      const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
      dt.items.add(new File([png], 'image.png', { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    });
    await until('the pasted image linked', () => box.inputValue(), (v) => /\[image\.png\]\(\/user_uploads\/.+image\.png\)/.test(v));
    await box.press('Enter');
    const sent = article(bob.page, 'dropped.txt');
    await bob.page.goto(`${env.url}/#narrow/channel/${designId}-design/topic/files`);
    await sent.getByRole('link', { name: 'dropped.txt' }).waitFor();
    const href = await sent.getByRole('link', { name: 'dropped.txt' }).getAttribute('href');
    const body = await bob.page.evaluate(async (u) => (await fetch(u!)).text(), href);
    assert.equal(body, 'dropped text');
  });

  test('a file chosen with the attach button is linked where the cursor was, and writing goes on after it', async () => {
    const page = alice.page;
    await page.goto(`${env.url}/#narrow/channel/${designId}-design/topic/files`);
    // The box the last test sent from may still be open, addressed here.
    if ((await page.getByRole('button', { name: 'Close compose' }).count()) === 0) await page.getByRole('button', { name: 'Compose', exact: true }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Here it is:');
    // As a click on the button leaves it: the focus on the file input.
    const attach = page.getByLabel('Attach files');
    await attach.focus();
    await attach.setInputFiles({ name: 'plan.txt', mimeType: 'text/plain', buffer: Buffer.from('the plan') });
    await until('the chosen file linked', () => box.inputValue(), (v) => /^Here it is: \[plan\.txt\]\(\/user_uploads\/.+plan\.txt\)$/.test(v));
    await until('the message box focused', () => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), (v) => v === 'Message');
    await page.keyboard.type(' thanks');
    assert.match(await box.inputValue(), /plan\.txt\) thanks$/);
    await page.getByRole('button', { name: 'Close compose' }).click();
  });

  test('moving a topic from the message actions moves it for Bob too', async () => {
    const page = alice.page;
    await page.goto(`${env.url}/#narrow/channel/${designId}-design/topic/logo`);
    const msg = article(page, 'Logo idea 2');
    await msg.hover();
    await msg.getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menuitem', { name: 'Move topic' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move topic' });
    // Nothing to move until the topic or the stream changes (the server said "Nothing to change").
    const move = dialog.getByRole('button', { name: 'Move' });
    assert.equal(await move.isDisabled(), true);
    await dialog.getByRole('textbox', { name: 'New topic' }).fill('logo ');
    assert.equal(await move.isDisabled(), true);
    await dialog.getByRole('textbox', { name: 'New topic' }).fill('branding');
    assert.equal(await move.isDisabled(), false);
    assert.deepEqual(await axeViolations(page), []);
    await dialog.getByRole('button', { name: 'Move' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Alice's view goes with the topic.
    await page.getByRole('heading', { name: '#design > branding' }).waitFor();
    await article(page, 'Logo idea 2').waitFor();
    const bobNav = bob.page.getByRole('navigation', { name: 'Streams', exact: true });
    await bob.page.goto(`${env.url}/#narrow/channel/${designId}-design`);
    await bobNav.getByRole('link', { name: /^branding/ }).click();
    await bob.page.getByRole('heading', { name: '#design > branding' }).waitFor();
    await article(bob.page, 'Logo idea 2').waitFor();
    await article(bob.page, 'Logo idea 1').waitFor();
    // Moved, not edited: live for Alice, fetched for Bob.
    for (const p of [page, bob.page]) {
      await article(p, 'Logo idea 1').getByText('(moved)').waitFor();
      assert.equal(await article(p, 'Logo idea 1').getByText('(edited)').count(), 0);
    }
  });

  test('"Mark as unread" in the message actions brings the unread count back', async () => {
    const page = bob.page;
    await page.bringToFront();
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'standup', content: 'Standup at ten' }, aliceAccount);
    const { stream_id } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'general' });
    await page.goto(`${env.url}/#narrow/channel/${stream_id}-general/topic/standup`);
    const topicLink = page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^standup/ });
    const msg = article(page, 'Standup at ten');
    await msg.waitFor();
    await topicLink.getByLabel('1 unread').waitFor({ state: 'detached' });
    await msg.hover();
    await msg.getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menuitem', { name: 'Mark as unread' }).click();
    await topicLink.getByLabel('1 unread').waitFor();
    // It stays unread while it is on screen, as the server says.
    const flags = async () => ((await env.server.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: 'topic', operand: 'standup' }]) }, bobAccount)).messages as { flags: string[] }[])[0]!.flags;
    await until('the server to hold it unread', flags, (f) => !f.includes('read'));
    await page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^design/ }).click();
    await topicLink.getByLabel('1 unread').waitFor();
  });

  test('direct-message recipients are pills: added by typeahead, removed with × or Backspace', async () => {
    const page = alice.page;
    await page.bringToFront();
    if ((await page.getByRole('button', { name: 'Close compose' }).count()) > 0) await page.getByRole('button', { name: 'Close compose' }).click();
    await page.getByRole('button', { name: 'New direct message' }).click();
    const to = page.getByRole('textbox', { name: 'To' });
    assert.ok(await to.evaluate((el) => el === document.activeElement));
    await to.pressSequentially('bo');
    await page.getByRole('option', { name: /Bob/ }).waitFor();
    await to.press('Enter');
    const recipients = page.getByRole('group', { name: 'To' });
    await recipients.getByRole('button', { name: 'Remove Bob' }).waitFor();
    assert.equal(await to.inputValue(), '');
    await to.pressSequentially('car');
    await page.getByRole('option', { name: /Carol/ }).waitFor();
    await to.press('Tab');
    await recipients.getByRole('button', { name: 'Remove Carol' }).waitFor();
    // Bob is not suggested twice.
    await to.pressSequentially('bo');
    assert.equal(await page.getByRole('option', { name: /Bob/ }).count(), 0);
    await to.fill('');
    assert.deepEqual(await axeViolations(page), []);
    await to.press('Backspace');
    await recipients.getByRole('button', { name: 'Remove Carol' }).waitFor({ state: 'detached' });
    await recipients.getByRole('button', { name: 'Remove Bob' }).click();
    await recipients.getByRole('button', { name: 'Remove Bob' }).waitFor({ state: 'detached' });
    assert.ok(await to.evaluate((el) => el === document.activeElement));
    // An exact email becomes a pill at a comma; Enter in the empty field goes on to the message.
    await to.pressSequentially(`${carolAccount.email},`);
    await recipients.getByRole('button', { name: 'Remove Carol' }).waitFor();
    await to.press('Enter');
    const box = page.getByRole('textbox', { name: 'Message' });
    assert.ok(await box.evaluate((el) => el === document.activeElement));
    await box.fill('Pills work');
    await box.press('Enter');
    const carol = await logIn(env, carolAccount.email, carolAccount.password!);
    await carol.page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^Alice/ }).click();
    await article(carol.page, 'Pills work').waitFor();
    await carol.context.close();
  });
});
