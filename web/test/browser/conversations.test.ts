// The Inbox and Recent conversations views with two people: Bob's Inbox gains a row live when
// Alice writes, opening it reads the conversation and the row leaves; rows are marked read in
// place, groups collapse, the filter narrows, the keys move between rows; Recent puts the newest
// conversation first and filters; the home view setting picks the view a bare URL opens.
// Elements are found by role and accessible name only.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axeViolations, browserSkipReason, logIn, setUp, shotsAfterTest, twoPeople, until, type Env, type Person } from './harness.ts';
import type { Account } from '../../../test/helpers/server.ts';

const skip = browserSkipReason();
if (skip) console.log(`# browser tests skipped: ${skip}`);

describe('the Inbox and Recent conversations', { skip: skip ?? false }, () => {
  let env: Env;
  let aliceAccount: Account;
  let bobAccount: Account;
  let alice: Person;
  let bob: Person;
  let designId: number;
  const pw = (name: string) => `pw-${name}-secret`;
  const inbox = (p: Page) => p.getByRole('main', { name: 'Inbox' });
  const recent = (p: Page) => p.getByRole('main', { name: 'Recent conversations' });
  const open = async (p: Page, name: 'Inbox' | 'Recent conversations') => {
    await p.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: new RegExp(`^${name}`) }).click();
    await p.getByRole('main', { name }).waitFor();
  };

  before(async () => {
    env = await setUp();
    ({
      accounts: [aliceAccount, bobAccount],
      people: [alice, bob],
    } = await twoPeople(env, {
      names: ['Alice', 'Bob'],
      streams: ['general', 'design'],
      withOwner: true,
      beforeLogIn: async () => {
        await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'logo', content: 'Welcome to design' });
        designId = ((await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' })) as { stream_id: number }).stream_id;
      },
      // Neither lands on a message list, which would read the welcome message.
      hashes: ['#recent', '#inbox'],
    }));
  });

  after(async () => {
    await env?.close();
  });

  afterEach((t) => shotsAfterTest(t.name, { alice: alice?.page, bob: bob?.page }));

  test("Bob's Inbox gains a row live when Alice writes; opening it reads it and the row leaves", async () => {
    await open(bob.page, 'Inbox');
    const design = inbox(bob.page).getByRole('region', { name: 'design' });
    await design.getByRole('link', { name: /^logo/ }).getByLabel('1 unread').waitFor();
    assert.deepEqual(await axeViolations(bob.page), []);

    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'lunch', content: 'Pizza at noon?' }, aliceAccount);
    const general = inbox(bob.page).getByRole('region', { name: 'general' });
    const lunch = general.getByRole('link', { name: /^lunch/ });
    await lunch.getByLabel('1 unread').waitFor();
    await general.getByRole('button', { name: /^general/ }).getByLabel('1 unread').waitFor();

    await lunch.click();
    await bob.page.getByRole('heading', { name: '#general > lunch' }).waitFor();
    await bob.page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Pizza at noon?' }).waitFor();
    await open(bob.page, 'Inbox');
    await until('the lunch row to leave', async () => (await general.count()) === 0);
    assert.equal(await design.getByRole('link', { name: /^logo/ }).count(), 1);
  });

  test('Recent puts the newest conversation first, live, with its participants, and filters', async () => {
    await open(alice.page, 'Recent conversations');
    const rows = recent(alice.page).getByRole('row');
    await until('lunch first', async () => /lunch/.test((await rows.nth(1).textContent()) ?? ''));
    assert.match((await rows.nth(2).textContent()) ?? '', /logo/);
    assert.deepEqual(await axeViolations(alice.page), []);

    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'colours', content: 'Teal or green?' }, bobAccount);
    await until('colours first', async () => /colours/.test((await rows.nth(1).textContent()) ?? ''));
    const first = rows.nth(1);
    assert.match((await first.getByRole('cell').nth(0).textContent()) ?? '', /design/);
    await first.getByLabel('1 unread').waitFor();
    assert.match((await first.getByRole('cell').nth(3).textContent()) ?? '', /Bob/);

    // Unread only: the conversations Alice has read leave.
    await recent(alice.page).getByRole('button', { name: 'Unread' }).click();
    assert.equal(await recent(alice.page).getByRole('button', { name: 'Unread' }).getAttribute('aria-pressed'), 'true');
    await until('read conversations to leave', async () => !/lunch/.test((await recent(alice.page).getByRole('table').textContent()) ?? ''));
    assert.match((await rows.nth(1).textContent()) ?? '', /colours/);
    await recent(alice.page).getByRole('button', { name: 'Unread' }).click();
    // Participated: Alice wrote in lunch only.
    await recent(alice.page).getByRole('button', { name: 'Participated' }).click();
    await until('only lunch', async () => (await rows.count()) === 2 && /lunch/.test((await rows.nth(1).textContent()) ?? ''));
    await recent(alice.page).getByRole('button', { name: 'Participated' }).click();
    await recent(alice.page).getByRole('searchbox', { name: 'Filter conversations' }).fill('logo');
    await until('only logo', async () => (await rows.count()) === 2 && /logo/.test((await rows.nth(1).textContent()) ?? ''));
    await recent(alice.page).getByRole('searchbox', { name: 'Filter conversations' }).fill('');
    await recent(alice.page).getByRole('combobox', { name: 'Conversation kind' }).selectOption({ label: 'Direct messages only' });
    await recent(alice.page).getByRole('status').filter({ hasText: 'No conversations match your filters.' }).waitFor();
    assert.equal(await recent(alice.page).getByText('You have seen every conversation.').count(), 0, 'an empty list says so once');
    await recent(alice.page).getByRole('combobox', { name: 'Conversation kind' }).selectOption({ label: 'Streams and DMs' });

    // A muted topic leaves until "Include muted"; shown, it still reads well in the dark theme.
    await env.server.ok('POST', '/api/v1/user_topics', { stream_id: designId, topic: 'logo', visibility_policy: 1 }, aliceAccount);
    await until('logo to leave', async () => !/logo/.test((await recent(alice.page).getByRole('table').textContent()) ?? ''));
    await recent(alice.page).getByRole('button', { name: 'Include muted' }).click();
    await recent(alice.page).getByRole('link', { name: 'logo' }).waitFor();
    await alice.page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
    assert.deepEqual(await axeViolations(alice.page), []);
    await alice.page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    await recent(alice.page).getByRole('button', { name: 'Include muted' }).click();

    // Everything here fits in one page: the end of history is said.
    await recent(alice.page).getByText('You have seen every conversation.').waitFor();
    await rows.nth(1).getByRole('link', { name: 'colours' }).click();
    await alice.page.getByRole('heading', { name: '#design > colours' }).waitFor();
  });

  test('the Inbox marks rows and streams read in place, collapses groups, filters, and moves with the keys', async () => {
    await env.server.ok('POST', '/api/v1/messages', { type: 'direct', to: [bobAccount.id], content: 'Hi Bob' }, aliceAccount);
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'release', content: '@**Bob** can you check?' }, aliceAccount);
    await open(bob.page, 'Inbox');
    const view = inbox(bob.page);
    const dms = view.getByRole('region', { name: 'Direct messages' });
    await dms.getByRole('link', { name: /^Alice/ }).getByLabel('1 unread').waitFor();
    await view.getByRole('region', { name: 'general' }).getByRole('link', { name: /^release/ }).getByLabel('mentions you').waitFor();

    // The filter keeps what matches.
    const filter = view.getByRole('searchbox', { name: 'Filter conversations' });
    await filter.fill('release');
    await until('only general', async () => (await view.getByRole('region').count()) === 1);
    await filter.fill('');

    // Collapsing a group hides its rows and says so.
    const toggle = view.getByRole('region', { name: 'design' }).getByRole('button', { name: /^design/ });
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.equal(await view.getByRole('region', { name: 'design' }).getByRole('link').count(), 0);
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');

    // Keys: from the filter, down to the DM group, down to Alice's row, Enter opens it.
    await filter.focus();
    await bob.page.keyboard.press('ArrowDown');
    assert.equal(await dms.getByRole('button', { name: /^Direct messages/ }).evaluate((el) => el === document.activeElement), true);
    await bob.page.keyboard.press('ArrowDown');
    assert.equal(await dms.getByRole('link', { name: /^Alice/ }).evaluate((el) => el === document.activeElement), true);
    await bob.page.keyboard.press('Enter');
    await bob.page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Hi Bob' }).waitFor();
    assert.match(bob.page.url(), /#narrow\/dm\//);
    await open(bob.page, 'Inbox');
    await until('the DM group to leave', async () => (await dms.count()) === 0);

    // Mark a topic read, then a whole stream; the server has them read.
    await view.getByRole('button', { name: 'Mark general > release as read' }).click();
    await until('general to leave', async () => (await view.getByRole('region', { name: 'general' }).count()) === 0);
    await view.getByRole('button', { name: 'Mark all of design as read' }).click();
    await view.getByRole('status').filter({ hasText: 'You have no unread messages.' }).waitFor();
    await until('the server to have them read', async () => {
      const r = await env.server.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 20, num_after: 0, narrow: JSON.stringify([{ operator: 'is', operand: 'unread' }]) }, bobAccount);
      return (r.messages as unknown[]).length === 0;
    });
    assert.deepEqual(await axeViolations(bob.page), []);
  });

  test('a URL without a hash opens the home view (Recent by default, then the setting); Escape goes home, t and Shift+I open the views', async () => {
    const page = await bob.context.newPage();
    await page.goto(env.url + '/');
    await recent(page).waitFor();
    await env.server.ok('PATCH', '/api/v1/settings', { web_home_view: 'all_messages' }, bobAccount);
    await page.goto(env.url + '/');
    await page.getByRole('main', { name: /^Messages/ }).waitFor();
    await page.goto(env.url + '/#inbox');
    await inbox(page).waitFor();
    // Escape goes home.
    await page.getByRole('heading', { name: 'Inbox' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('main', { name: /^Messages/ }).waitFor();
    // Their shortcuts: t for Recent, Shift+I for the Inbox.
    await page.keyboard.press('t');
    await recent(page).waitFor();
    await page.keyboard.press('Shift+I');
    await inbox(page).waitFor();
    await env.server.ok('PATCH', '/api/v1/settings', { web_home_view: 'recent_topics' }, bobAccount);
    await page.close();
  });

  test('on the way to the Inbox or Recent conversations an empty compose box closes, and one with words in it stays', async () => {
    const page = await bob.context.newPage();
    await page.goto(`${env.url}/#narrow/channel/${designId}-design/topic/logo`);
    await page.getByRole('button', { name: 'Compose' }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.waitFor();
    await page.evaluate(() => (location.hash = '#inbox'));
    await inbox(page).waitFor();
    await box.waitFor({ state: 'detached' });
    await page.evaluate((h) => (location.hash = h), `#narrow/channel/${designId}-design/topic/logo`);
    await page.getByRole('button', { name: 'Compose' }).click();
    await box.fill('half a thought');
    await page.evaluate(() => (location.hash = '#recent'));
    await recent(page).waitFor();
    assert.equal(await box.inputValue(), 'half a thought');
    await page.close();
  });

  test("on a phone Recent's filter row scrolls sideways and fades at its right edge, so a chip cut there reads as more", async () => {
    const page = await bob.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(env.url + '/#recent');
    const filters = page.getByRole('group', { name: 'Filters' });
    await filters.waitFor();
    const look = () => filters.evaluate((el) => ({ scrolls: el.scrollWidth > el.clientWidth, mask: getComputedStyle(el).maskImage }));
    const phone = await look();
    assert.equal(phone.scrolls, true);
    assert.match(phone.mask, /linear-gradient/);
    // A desktop has room for the whole row: no fade.
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(await look(), { scrolls: false, mask: 'none' });
    await page.close();
  });

  test("on a phone the filter boxes of Recent conversations and the Inbox show their whole placeholder", async () => {
    const page = await bob.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [hash, name] of [
      ['#recent', 'Recent conversations'],
      ['#inbox', 'Inbox'],
    ] as const) {
      await page.goto(`${env.url}/${hash}`);
      const box = page.getByRole('main', { name }).getByRole('searchbox', { name: 'Filter conversations' });
      await box.waitFor();
      const fit = await box.evaluate((el: HTMLInputElement) => {
        const css = getComputedStyle(el);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = css.font;
        const room = el.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
        return { text: el.placeholder, need: Math.ceil(ctx.measureText(el.placeholder).width), room };
      });
      assert.ok(fit.need <= fit.room, `${name}: "${fit.text}" needs ${fit.need}px, has ${fit.room}px`);
    }
    await page.close();
  });

  test('a topic name cut by its row shows whole on hover, in the Inbox and in Recent conversations', async () => {
    const name = 'release notes for version 2.1 and everything after it';
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: name, content: 'Notes' }, aliceAccount);
    await open(bob.page, 'Inbox');
    const label = inbox(bob.page).getByText(name, { exact: true });
    await label.waitFor();
    assert.equal(await label.getAttribute('title'), name);
    assert.equal(await inbox(bob.page).getByText('design', { exact: true }).getAttribute('title'), 'design');
    await open(bob.page, 'Recent conversations');
    const link = recent(bob.page).getByRole('link', { name, exact: true });
    assert.equal(await link.getAttribute('title'), name);
    assert.equal(await recent(bob.page).getByText('design', { exact: true }).first().getAttribute('title'), 'design');
  });

  test('screenshots of both views, desktop and phone, light and dark, with no serious axe violation', { skip: !process.env.PARLEY_BROWSER_SHOTS }, async () => {
    const dir = process.env.PARLEY_BROWSER_SHOTS!;
    await env.server.ok('POST', '/api/v1/messages', { type: 'direct', to: [bobAccount.id], content: 'Lunch?' }, aliceAccount);
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'lunch', content: 'Tacos today @**Bob**' }, aliceAccount);
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'a rather long topic name about the new colour palette', content: 'Thoughts?' }, aliceAccount);
    const phone = await logIn(env, bobAccount.email, pw('Bob'), { width: 390, height: 844 }, '#inbox');
    for (const [who, page] of [
      ['desktop', bob.page],
      ['phone', phone.page],
    ] as const) {
      for (const theme of ['light', 'dark']) {
        await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
        for (const [name, hash] of [
          ['inbox', '#inbox'],
          ['recent', '#recent'],
        ]) {
          await page.evaluate((h) => (location.hash = h), hash!);
          await page.getByRole('main', { name: name === 'inbox' ? 'Inbox' : 'Recent conversations' }).waitFor();
          await page.waitForTimeout(300);
          await page.screenshot({ path: `${dir}/inbox-recent-${name}-${who}-${theme}.png` });
          assert.deepEqual(await axeViolations(page), [], `${name} ${who} ${theme}`);
        }
      }
    }
    await phone.context.close();
  });
});
