// Writing and rewriting messages in a real Chromium against a real server: compose's buttons in
// direct messages, the selection after a send, the edit box's suggestions, the drafts and
// scheduled messages lists beside the feed, and the move dialog on a phone. Elements are found by
// role and accessible name only.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { browserSkipReason, logIn, setUp, shotsAfterTest, twoAccounts, until, type Env, type Person } from './harness.ts';
import type { Account } from '../../../test/helpers/server.ts';

const skip = browserSkipReason();
if (skip) console.log(`# browser tests skipped: ${skip}`);

describe('composing and editing', { skip: skip ?? false }, () => {
  let env: Env;
  let aliceAccount: Account;
  let bobAccount: Account;
  let alice: Person;
  let generalId: number;
  let designId: number;
  const LONG_TOPIC = 'Quarterly planning for the spring release and its many loose ends';

  before(async () => {
    env = await setUp();
    [aliceAccount, bobAccount] = await twoAccounts(env, { names: ['Alice', 'Bob'], streams: ['general', 'design'], withOwner: true });
    generalId = (await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'general' })).stream_id as number;
    designId = (await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' })).stream_id as number;
    await env.server.ok('POST', `/api/v1/users/me/subscriptions/properties`, { subscription_data: [{ stream_id: generalId, property: 'color', value: '#e7a614' }] }, aliceAccount);
    for (const content of ['First from Bob', 'Second from Bob']) await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'plans', content }, bobAccount);
    await env.server.ok('POST', '/api/v1/messages', { type: 'direct', to: [aliceAccount.id], content: 'Hi Alice, Bob here' }, bobAccount);
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: LONG_TOPIC.slice(0, 60), content: 'A long topic indeed' }, aliceAccount);
    alice = await logIn(env, aliceAccount.email, aliceAccount.password!);
  });

  afterEach((t) => shotsAfterTest(t.name, { alice: alice?.page }));

  after(async () => {
    await env?.close();
  });

  const article = (p: Page, text: string) => p.getByRole('article').filter({ hasText: text });

  /**
   * A message of Alice's of its own in a topic of its own, shown in her view of that topic: each
   * test makes what it edits, so any one runs alone (`--test-name-pattern`).
   */
  async function aliceSaysIn(topic: string, content: string): Promise<void> {
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic, content }, aliceAccount);
    await alice.page.evaluate((h) => (location.hash = h), `#narrow/channel/${generalId}-general/topic/${topic}`);
    await article(alice.page, content).waitFor();
  }

  /** Escape leaves compose, and `e` edits the selected message, whose text is `text`; Escape ends the edit. */
  async function editsSelected(page: Page, text: string): Promise<void> {
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.press('Escape');
    await until('compose closed', async () => (await box.count()) === 0);
    await page.keyboard.press('e');
    const edit = page.getByRole('textbox', { name: 'Edit message content' });
    await edit.waitFor();
    assert.equal(await edit.inputValue(), text);
    await edit.press('Escape');
    await edit.waitFor({ state: 'detached' });
  }

  /** Edits the message with `text` (a click, then `e`) and types ` @` at its end: five suggestions or more show. */
  async function mentionInEdit(page: Page, text: string) {
    await article(page, text).click();
    await page.keyboard.press('e');
    const edit = page.getByRole('textbox', { name: 'Edit message content' });
    await edit.waitFor();
    await edit.press('End');
    await edit.pressSequentially(' @');
    const options = page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option');
    await options.first().waitFor();
    assert.ok((await options.count()) >= 5);
    return { edit, options };
  }

  test('in direct messages compose offers no new topic, and Compose writes to the conversation', async () => {
    const page = alice.page;
    await page.evaluate((h) => (location.hash = h), `#narrow/dm/${bobAccount.id}-Bob`);
    await article(page, 'Hi Alice, Bob here').waitFor();
    await page.getByRole('button', { name: 'New direct message' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'New topic' }).count(), 0, 'a new topic in a DM went to the first stream');
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    assert.equal(await box.getAttribute('placeholder'), 'Direct message');
    assert.equal(await page.getByRole('combobox', { name: 'Stream' }).count(), 0);
    await page.getByRole('button', { name: 'Close compose' }).click();
    // All direct messages have no topics either.
    await page.evaluate(() => (location.hash = '#narrow/is/dm'));
    await article(page, 'Hi Alice, Bob here').waitFor();
    assert.equal(await page.getByRole('button', { name: 'New topic' }).count(), 0);
    // A stream's view still has it.
    await page.evaluate((h) => (location.hash = h), `#narrow/channel/${generalId}-general`);
    await page.getByRole('button', { name: 'New topic' }).waitFor();
  });

  test('after a send the selection moves to the message just sent', async () => {
    const page = alice.page;
    await page.evaluate((h) => (location.hash = h), `#narrow/channel/${generalId}-general/topic/plans`);
    await article(page, 'First from Bob').click();
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('My answer to Bob');
    await box.press('Enter');
    await article(page, 'My answer to Bob').waitFor();
    // Alice's own, not Bob's.
    await editsSelected(page, 'My answer to Bob');
  });

  test('the edit box suggests people, streams and emoji as compose does', async () => {
    const page = alice.page;
    await aliceSaysIn('edit suggestions', 'An answer to suggest into');
    const msg = article(page, 'An answer to suggest into');
    await msg.click();
    await page.keyboard.press('e');
    const edit = page.getByRole('textbox', { name: 'Edit message content' });
    await edit.waitFor();
    await edit.press('End');
    await edit.pressSequentially(' @bo');
    const list = page.getByRole('listbox', { name: 'Suggestions' });
    await list.getByRole('option', { name: /^Bob/ }).waitFor();
    assert.equal(await edit.getAttribute('aria-controls'), await list.getAttribute('id'));
    await edit.press('Enter');
    await until('the mention inserted', async () => (await edit.inputValue()) === `An answer to suggest into @**Bob|${bobAccount.id}** `);
    // Enter picked, it did not save: the box is still open.
    assert.equal(await edit.count(), 1);
    await edit.pressSequentially('in #des');
    await list.getByRole('option', { name: /^design/ }).waitFor();
    await edit.press('Tab');
    await until('the stream link inserted', async () => (await edit.inputValue()).startsWith(`An answer to suggest into @**Bob|${bobAccount.id}** in #**design**`));
    // A pick puts the cursor after what it inserted on the next frame: typing before that went behind it.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    // Typed at once: the emoji names load with the first `:`, and are suggested when they arrive
    // (only the next key showed them).
    await page.keyboard.insertText(' :thumbs_u');
    await list.getByRole('option', { name: /thumbs_up/ }).waitFor();
    if (process.env.PARLEY_BROWSER_SHOTS) await page.screenshot({ path: `${process.env.PARLEY_BROWSER_SHOTS}/edit-suggestions.png` });
    // Escape closes the suggestions first, then the edit.
    await edit.press('Escape');
    await list.waitFor({ state: 'detached' });
    assert.equal(await edit.count(), 1);
    await edit.press('Escape');
    await edit.waitFor({ state: 'detached' });
  });

  test("the edit box's suggestions show whole for the first message of a view", async () => {
    const page = alice.page;
    await page.evaluate((h) => (location.hash = h), `#narrow/channel/${designId}-design`);
    // People and the wildcards: a long list, which above the box went under the view's top edge.
    const { edit, options } = await mentionInEdit(page, 'A long topic indeed');
    const hidden = await options.evaluateAll((els) =>
      els
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return !el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
        })
        .map((el) => el.textContent),
    );
    assert.deepEqual(hidden, []);
    if (process.env.PARLEY_BROWSER_SHOTS) await page.screenshot({ path: `${process.env.PARLEY_BROWSER_SHOTS}/edit-suggestions-below.png` });
    await edit.press('Escape');
    await edit.press('Escape');
    await edit.waitFor({ state: 'detached' });
  });

  test('with "Enter sends" off, Enter in the edit box makes a new line and Ctrl+Enter saves, as in compose', async () => {
    const page = alice.page;
    await aliceSaysIn('enter sends off', 'One line to begin with');
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    const enterSends = page.getByRole('checkbox', { name: 'Enter sends' });
    await enterSends.uncheck();
    await page.getByRole('button', { name: 'Close compose' }).click();
    try {
      await article(page, 'One line to begin with').click();
      await page.keyboard.press('e');
      const edit = page.getByRole('textbox', { name: 'Edit message content' });
      await edit.waitFor();
      await edit.press('End');
      await edit.press('Enter');
      await edit.pressSequentially('and a second line');
      assert.equal(await edit.inputValue(), 'One line to begin with\nand a second line', 'Enter saved the edit');
      await edit.press('Control+Enter');
      await edit.waitFor({ state: 'detached' });
      await article(page, 'and a second line').waitFor();
    } finally {
      await page.getByRole('button', { name: 'Compose', exact: true }).click();
      await enterSends.check();
      await page.getByRole('button', { name: 'Close compose' }).click();
    }
  });

  test('Enter on the edit box\'s Cancel cancels the edit', async () => {
    const page = alice.page;
    await aliceSaysIn('cancelled edits', 'Kept as it was');
    await article(page, 'Kept as it was').click();
    await page.keyboard.press('e');
    const edit = page.getByRole('textbox', { name: 'Edit message content' });
    await edit.waitFor();
    await edit.fill('Not to be saved');
    await page.getByRole('button', { name: 'Cancel' }).focus();
    await page.keyboard.press('Enter');
    await edit.waitFor({ state: 'detached' });
    await article(page, 'Kept as it was').waitFor();
    assert.equal(await article(page, 'Not to be saved').count(), 0);
  });

  test("drafts and scheduled messages show their conversation's bar as the feed does, and when a draft was saved", async () => {
    const page = alice.page;
    // A draft without a topic, and a scheduled message to the same stream.
    await env.server.ok('POST', '/api/v1/drafts', { drafts: [{ type: 'stream', to: [generalId], topic: '', content: 'No topic yet', timestamp: Math.floor(Date.now() / 1000) }] }, aliceAccount);
    await env.server.ok('POST', '/api/v1/scheduled_messages', { type: 'stream', to: generalId, topic: 'plans', content: 'Later on', scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 3600 }, aliceAccount);
    await page.evaluate((h) => (location.hash = h), `#narrow/channel/${generalId}-general/topic/plans`);
    const feedBar = page.getByRole('main').getByRole('link', { name: '#general' }).first();
    await feedBar.waitFor();
    const colour = async (link: ReturnType<Page['getByRole']>) => link.evaluate((a) => getComputedStyle(a.parentElement!).borderLeftColor);
    const feedColour = await colour(feedBar);
    assert.equal(feedColour, 'rgb(231, 166, 20)');

    await page.evaluate(() => (location.hash = '#drafts'));
    const draft = page.getByRole('main', { name: 'Drafts' }).getByRole('article', { name: 'Draft to #general › (no topic)' });
    await draft.getByText('No topic yet').waitFor();
    assert.equal(await colour(draft.getByRole('link', { name: '#general' })), feedColour);
    await draft.getByText(/^Saved /).waitFor();

    await page.evaluate(() => (location.hash = '#scheduled'));
    const scheduled = page.getByRole('main', { name: 'Scheduled messages' }).getByRole('article', { name: 'Scheduled message to #general › plans' });
    await scheduled.getByText('Later on').waitFor();
    assert.equal(await colour(scheduled.getByRole('link', { name: '#general' })), feedColour);
  });

  test('deleting a draft moves the focus to the next one, so several go with the keyboard', async () => {
    const page = alice.page;
    const now = Math.floor(Date.now() / 1000);
    await env.server.ok('POST', '/api/v1/drafts', { drafts: [1, 2].map((n) => ({ type: 'stream', to: [generalId], topic: 'plans', content: `Draft number ${n}`, timestamp: now - n })) }, aliceAccount);
    await page.evaluate(() => (location.hash = '#drafts'));
    const list = page.getByRole('main', { name: 'Drafts' });
    const drafts = list.getByRole('article');
    await list.getByText('Draft number 2').waitFor();
    const count = await drafts.count();
    await drafts.first().getByRole('button', { name: 'Delete draft' }).focus();
    for (let left = count - 1; left > 0; left--) {
      await page.keyboard.press('Enter');
      await until(`${left} drafts left`, async () => (await drafts.count()) === left);
      assert.equal(await page.evaluate(() => document.activeElement?.closest('article') ? document.activeElement.textContent : null), 'Delete draft');
    }
    await page.keyboard.press('Enter');
    await list.getByText('No drafts.').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Drafts');
  });

  test("on a phone the move dialog's topic field shows the start of a long topic", async () => {
    const phone = await logIn(env, aliceAccount.email, aliceAccount.password!, { width: 390, height: 844 }, `#narrow/channel/${designId}-design`);
    try {
      const msg = article(phone.page, 'A long topic indeed');
      await msg.click();
      await msg.getByRole('button', { name: 'Message actions' }).click();
      await phone.page.getByRole('menuitem', { name: 'Move topic' }).click();
      const field = phone.page.getByRole('dialog', { name: 'Move topic' }).getByRole('textbox', { name: 'New topic' });
      await field.waitFor();
      assert.equal(await field.inputValue(), LONG_TOPIC.slice(0, 60));
      const shown = await field.evaluate((el: HTMLInputElement) => ({ scrollLeft: el.scrollLeft, overflows: el.scrollWidth > el.clientWidth }));
      assert.deepEqual(shown, { scrollLeft: 0, overflows: true });
      if (process.env.PARLEY_BROWSER_SHOTS) await phone.page.screenshot({ path: `${process.env.PARLEY_BROWSER_SHOTS}/move-phone.png` });
      await field.press('Escape');
    } finally {
      await phone.context.close();
    }
  });
  test('a message sent from far back in a long topic takes the view to the present, the message shown and selected', async () => {
    // 150 messages Alice has not read: the topic opens at the first of them, far from the end.
    for (let i = 1; i <= 150; i++) await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'long history', content: `Old news ${i}` }, bobAccount);
    const page = alice.page;
    await page.evaluate((h) => (location.hash = h), `#narrow/channel/${generalId}-general/topic/long history`);
    await article(page, 'Old news 1').first().waitFor();
    assert.equal(await article(page, 'Old news 150').count(), 0, 'the list reached the present before the send');
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Back to the present');
    await box.press('Enter');
    const mine = article(page, 'Back to the present');
    await mine.waitFor();
    await article(page, 'Old news 150').waitFor();
    // On screen in the list, not just in the DOM.
    await until('the sent message on screen', async () =>
      mine.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const box = el.closest('.scroller')!.getBoundingClientRect();
        return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
      }),
    );
    await editsSelected(page, 'Back to the present');
  });
  test("on a phone the edit box's suggestions leave its Save and Cancel buttons uncovered, and show whole", async () => {
    for (const content of ['Phone edit one', 'Phone edit two', 'Phone edit three']) await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'phone edits', content }, aliceAccount);
    const phone = await logIn(env, aliceAccount.email, aliceAccount.password!, { width: 390, height: 844 }, `#narrow/channel/${designId}-design/topic/phone edits`);
    const page = phone.page;
    // The first message of the view (no room above its box) and the last (room above).
    for (const text of ['Phone edit one', 'Phone edit three']) {
      const { edit } = await mentionInEdit(page, text);
      if (process.env.PARLEY_BROWSER_SHOTS) await page.screenshot({ path: `${process.env.PARLEY_BROWSER_SHOTS}/edit-suggestions-phone-${text.split(' ').pop()}.png` });
      // Nothing lies over the buttons: a tap reaches them.
      for (const name of ['Save', 'Cancel']) {
        const covered = await page.getByRole('button', { name, exact: true }).evaluate((el) => {
          const r = el.getBoundingClientRect();
          return !el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
        });
        assert.equal(covered, false, `${name} covered editing "${text}"`);
      }
      // The list shows whole on the screen, or scrolls within itself.
      const fit = await page.getByRole('listbox', { name: 'Suggestions' }).evaluate((el) => {
        const r = el.getBoundingClientRect();
        const box = el.closest('.scroller')!.getBoundingClientRect();
        return r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
      });
      assert.equal(fit, true, `the suggestions go off the message list editing "${text}"`);
      await edit.press('Escape');
      await edit.press('Escape');
      await edit.waitFor({ state: 'detached' });
    }
    await phone.context.close();
  });
  test('after saving or cancelling an edit the focus is on the edited message, selected, so keys go on from there', async () => {
    for (const content of ['Focus one', 'Focus two']) await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'focus after edit', content }, aliceAccount);
    const page = alice.page;
    await page.evaluate((h) => (location.hash = h), `#narrow/channel/${designId}-design/topic/focus after edit`);
    const focused = () => page.evaluate(() => ({ body: document.activeElement === document.body, text: document.activeElement?.closest('article')?.textContent ?? null }));
    const edit = page.getByRole('textbox', { name: 'Edit message content' });
    // Three ways out: Enter saves, the Cancel button, Escape.
    const ways: [string, () => Promise<void>][] = [
      ['Enter', () => edit.press('Enter')],
      ['Cancel', () => page.getByRole('button', { name: 'Cancel', exact: true }).click()],
      ['Escape', () => edit.press('Escape')],
    ];
    for (const [way, leave] of ways) {
      await article(page, 'Focus two').click();
      await page.keyboard.press('e');
      await edit.waitFor();
      await edit.press('End');
      await edit.pressSequentially('!');
      await leave();
      await edit.waitFor({ state: 'detached' });
      await until(`the focus back on the message after ${way}`, async () => {
        const f = await focused();
        return !f.body && f.text !== null && f.text.includes('Focus two');
      });
      // The keys act from the edited message: up selects the one above, and the focus goes along
      // (the ring stayed on the edited one), and `e` edits it.
      await page.keyboard.press('ArrowUp');
      await until(`the focus to follow the selection after ${way}`, async () => (await focused()).text?.includes('Focus one') === true);
      await page.keyboard.press('e');
      await edit.waitFor();
      assert.equal(await edit.inputValue(), 'Focus one', `after ${way}`);
      await edit.press('Escape');
      await edit.waitFor({ state: 'detached' });
    }
    await article(page, 'Focus two!').waitFor();
  });
  test('a draft to a topic moved as a whole follows it to its new stream and name', async () => {
    const { id } = await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'old plans', content: 'The plans as they were' }, bobAccount);
    await env.server.ok('POST', '/api/v1/drafts', { drafts: [{ type: 'stream', to: [generalId], topic: 'old plans', content: 'My thoughts on the plans', timestamp: Math.floor(Date.now() / 1000) }] }, aliceAccount);
    const page = alice.page;
    await page.evaluate(() => (location.hash = '#drafts'));
    const drafts = page.getByRole('main', { name: 'Drafts' });
    await drafts.getByRole('article', { name: 'Draft to #general › old plans' }).waitFor();
    await env.server.ok('PATCH', `/api/v1/messages/${id}`, { stream_id: designId, topic: 'new plans', propagate_mode: 'change_all' }, env.server.owner);
    await drafts.getByRole('article', { name: 'Draft to #design › new plans' }).getByText('My thoughts on the plans').waitFor();
    assert.equal(await drafts.getByRole('article', { name: 'Draft to #general › old plans' }).count(), 0);
    // On the server too: a reload shows it there.
    await page.reload();
    await page.getByRole('main', { name: 'Drafts' }).getByRole('article', { name: 'Draft to #design › new plans' }).waitFor();
  });
  test('Escape pressed at once after Enter sends the message and keeps no draft of it', async () => {
    const page = alice.page;
    await page.evaluate((h) => (location.hash = h), `#narrow/channel/${generalId}-general/topic/quick hands`);
    await page.getByRole('heading', { name: '#general > quick hands' }).waitFor();
    // The send's answer takes a moment, as on a slow network: Escape comes before it.
    await page.route('**/json/messages', async (route) => {
      if (route.request().method() === 'POST') await new Promise((r) => setTimeout(r, 600));
      await route.continue();
    });
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Sent in a hurry');
    await box.press('Enter');
    await box.press('Escape');
    await article(page, 'Sent in a hurry').waitFor();
    await page.unroute('**/json/messages');
    await page.waitForTimeout(500);
    const drafts = (await env.server.ok('GET', '/api/v1/drafts', undefined, aliceAccount)).drafts as { content: string }[];
    assert.deepEqual(drafts.filter((d) => d.content === 'Sent in a hurry'), []);
  });
});
