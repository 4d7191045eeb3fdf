// Polls and todo lists in the browser, two people live; the image lightbox; the edit history's
// differences. Elements are found by role and accessible name only.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axeViolations, browserSkipReason, logIn, setUp, type Env, type Person } from './harness.ts';
import type { Account } from '../../../test/helpers/server.ts';

const skip = browserSkipReason();
if (skip) console.log(`# browser tests skipped: ${skip}`);

/** Screens of a step in both themes, into PARLEY_BROWSER_SHOTS when it is set. */
async function shots(page: Page, name: string): Promise<void> {
  const dir = process.env.PARLEY_BROWSER_SHOTS;
  if (!dir) return;
  for (const t of ['light', 'dark']) {
    await page.evaluate((theme) => (document.documentElement.dataset.theme = theme), t);
    await page.screenshot({ path: `${dir}/widgets-${name}-${t}.png` });
  }
  await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
}

describe('widgets, lightbox and edit history in the web client', { skip: skip ?? false }, () => {
  let env: Env;
  let aliceAccount: Account;
  let bobAccount: Account;
  let alice: Person;
  let bob: Person;

  before(async () => {
    env = await setUp();
    aliceAccount = await env.server.createUser('Alice');
    bobAccount = await env.server.createUser('Bob');
    await env.server.ok('POST', '/api/v1/users/me/subscriptions', {
      subscriptions: [{ name: 'general' }],
      principals: [aliceAccount.email, bobAccount.email, env.server.owner.email],
    });
    alice = await logIn(env, aliceAccount.email, aliceAccount.password!);
    bob = await logIn(env, bobAccount.email, bobAccount.password!);
  });

  after(async () => {
    await env?.close();
  });

  afterEach(async (t) => {
    if (!process.env.PARLEY_BROWSER_SHOTS) return;
    const name = t.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40);
    await alice?.page.screenshot({ path: `${process.env.PARLEY_BROWSER_SHOTS}/${name}-alice.png` }).catch(() => undefined);
    await bob?.page.screenshot({ path: `${process.env.PARLEY_BROWSER_SHOTS}/${name}-bob.png` }).catch(() => undefined);
  });

  /** axe on the page with compose closed (its suggestion attributes are another area's). */
  const axe = async (page: Page) => {
    const close = page.getByRole('button', { name: 'Close compose' });
    if (await close.count()) await close.click();
    return axeViolations(page);
  };

  const openTopic = async (p: Person, topic: string) => {
    const nav = p.page.getByRole('navigation', { name: 'Streams' });
    await nav.getByRole('link', { name: /^general/ }).click();
    await nav.getByRole('link', { name: new RegExp(`^${topic}`) }).click();
  };

  test('Alice creates a poll; Bob votes and adds an option; Alice sees both live and edits the question', async () => {
    await alice.page.getByRole('navigation', { name: 'Streams' }).getByRole('link', { name: /^general/ }).click();
    await alice.page.getByRole('button', { name: 'New topic' }).click();
    await alice.page.getByRole('textbox', { name: 'Topic' }).fill('lunch');
    await alice.page.getByRole('textbox', { name: 'Message' }).fill('/poll Where to eat?\nPizza\nSushi');
    await alice.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    const alicePoll = alice.page.getByRole('region', { name: 'Where to eat?' });
    await alicePoll.getByRole('button', { name: 'Pizza: 0 votes' }).waitFor();

    await openTopic(bob, 'lunch');
    const bobPoll = bob.page.getByRole('region', { name: 'Where to eat?' });
    await bobPoll.getByRole('button', { name: 'Pizza: 0 votes' }).click();
    await bobPoll.getByRole('button', { name: 'Pizza: 1 vote', pressed: true }).waitFor();
    await alicePoll.getByRole('button', { name: 'Pizza: 1 vote', pressed: false }).waitFor();
    await alicePoll.getByText('Bob', { exact: true }).waitFor();

    await bobPoll.getByRole('textbox', { name: 'New option' }).fill('Tacos');
    await bobPoll.getByRole('button', { name: 'Add option' }).click();
    await alicePoll.getByRole('button', { name: 'Tacos: 0 votes' }).click();
    await bobPoll.getByRole('button', { name: 'Tacos: 1 vote' }).waitFor();
    // Voting again takes the vote back.
    await bobPoll.getByRole('button', { name: 'Pizza: 1 vote' }).click();
    await alicePoll.getByRole('button', { name: 'Pizza: 0 votes' }).waitFor();

    // Only the author may change the question.
    assert.equal(await bobPoll.getByRole('button', { name: 'Edit question' }).count(), 0);
    await alicePoll.getByRole('button', { name: 'Edit question' }).click();
    await alice.page.getByRole('textbox', { name: 'Poll question' }).fill('Where to eat on Friday?');
    await alice.page.getByRole('textbox', { name: 'Poll question' }).press('Enter');
    await bob.page.getByRole('region', { name: 'Where to eat on Friday?' }).waitFor();
    assert.deepEqual(await axe(bob.page), []);
  });

  test('a todo list: Bob ticks a task and adds one; Alice sees it live', async () => {
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'chores', content: '/todo Before Friday\n- Book room: the big one\n- Order food' }, aliceAccount);
    await openTopic(alice, 'chores');
    await openTopic(bob, 'chores');
    const bobList = bob.page.getByRole('region', { name: 'Before Friday' });
    const aliceList = alice.page.getByRole('region', { name: 'Before Friday' });
    await bobList.getByRole('checkbox', { name: /Book room/ }).check();
    await aliceList.getByRole('checkbox', { name: /Book room/, checked: true }).waitFor();
    await bobList.getByRole('textbox', { name: 'New task' }).fill('Bring plates');
    await bobList.getByRole('textbox', { name: 'Task description (optional)' }).fill('twelve');
    await bobList.getByRole('button', { name: 'Add task' }).click();
    await aliceList.getByRole('checkbox', { name: /Bring plates/, checked: false }).waitFor();
    await aliceList.getByRole('checkbox', { name: /Book room/ }).uncheck();
    await bobList.getByRole('checkbox', { name: /Book room/, checked: false }).waitFor();
    assert.deepEqual(await axe(alice.page), []);
    await shots(alice.page, 'todo-desktop');
  });

  test('widgets on a phone', async () => {
    const phone = await logIn(env, bobAccount.email, bobAccount.password!, { width: 390, height: 844 });
    await phone.page.goto(`${env.url}/#narrow/channel/1-general/topic/lunch`);
    await phone.page.getByRole('region', { name: /Where to eat/ }).waitFor();
    await shots(phone.page, 'poll-phone');
    await phone.page.goto(`${env.url}/#narrow/channel/1-general/topic/chores`);
    await phone.page.getByRole('region', { name: 'Before Friday' }).waitFor();
    await shots(phone.page, 'todo-phone');
    await phone.context.close();
    await openTopic(alice, 'lunch');
    await shots(alice.page, 'poll-desktop');
  });
});
