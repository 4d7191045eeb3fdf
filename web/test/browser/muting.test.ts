// Muting a person in a real Chromium against a real server: from their profile card, their
// messages are hidden (each can be shown), new ones too, and Notifications › Muted users lists
// them and unmutes them. Found by role and accessible name only.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSkipReason, openSettings, setUp, twoPeople, type Env, type Person } from './harness.ts';
import type { Account } from '../../../test/helpers/server.ts';

const skip = browserSkipReason();
if (skip) console.log(`# browser tests skipped: ${skip}`);

describe('muting people', { skip: skip ?? false }, () => {
  let env: Env;
  let bobAccount: Account;
  let alice: Person;

  before(async () => {
    env = await setUp();
    ({
      accounts: [, bobAccount],
      people: [alice],
    } = await twoPeople(env, {
      names: ['Alice', 'Bob'],
      streams: ['general'],
      beforeLogIn: (_a, b) => env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'lunch', content: 'Pizza again today' }, b),
    }));
  });

  after(async () => {
    await env?.close();
  });

  test("a person muted from their card has their messages hidden until shown, and is unmuted from Notifications", async () => {
    const page = alice.page;
    const pizza = page.getByRole('article').filter({ hasText: 'Pizza again today' });
    await pizza.getByRole('button', { name: 'Bob' }).click();
    const card = page.getByRole('dialog');
    await card.getByRole('button', { name: 'Mute Bob' }).click();
    await card.getByRole('button', { name: 'Unmute Bob' }).waitFor();
    await card.getByRole('button', { name: 'Close' }).click();

    // Hidden, by the sender's name still: shown on request.
    const hidden = page.getByRole('article').filter({ hasText: 'Hidden: you muted the sender.' });
    await hidden.waitFor();
    assert.equal(await pizza.count(), 0);
    await hidden.getByRole('button', { name: 'Show message' }).click();
    await pizza.waitFor();

    // A new message of his arrives hidden too.
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'lunch', content: 'Or sushi?' }, bobAccount);
    await hidden.waitFor();
    assert.equal(await page.getByRole('article').filter({ hasText: 'Or sushi?' }).count(), 0);
    if (process.env.PARLEY_BROWSER_SHOTS) await page.screenshot({ path: `${process.env.PARLEY_BROWSER_SHOTS}/muted-message.png` });

    await openSettings(alice, '#settings/notifications');
    await page.getByRole('dialog').getByRole('button', { name: 'Unmute Bob' }).click();
    await page.getByText('Bob is no longer muted.').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).first().click();
    await page.getByRole('article').filter({ hasText: 'Or sushi?' }).waitFor();
    assert.equal(await page.getByRole('article').filter({ hasText: 'Hidden: you muted the sender.' }).count(), 0);
  });
});
