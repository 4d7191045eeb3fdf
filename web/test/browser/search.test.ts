// The search box in a real Chromium against a real server: a search started in a stream, topic
// or conversation searches there (the box starts with that narrow's operators, which can be
// removed), and suggestions follow what is typed (operators, terms, streams, people), picked with
// the arrows and Enter or by a click, closed by Escape. Found by role and accessible name only.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axeViolations, browserSkipReason, logIn, setUp, shotsAfterTest, twoAccounts, type Env, type Person } from './harness.ts';
import type { Account } from '../../../test/helpers/server.ts';

const skip = browserSkipReason();
if (skip) console.log(`# browser tests skipped: ${skip}`);

describe('search', { skip: skip ?? false }, () => {
  let env: Env;
  let alice: Account;
  let bob: Account;
  let designId: number;
  let page: Page | undefined;

  before(async () => {
    env = await setUp();
    [alice, bob] = await twoAccounts(env, { names: ['Alice', 'Bob'], streams: ['general', 'design'] });
    designId = (await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' })).stream_id as number;
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'colors', content: 'The teal palette is final' }, alice);
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'fonts', content: 'A palette of fonts' }, alice);
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'paint', content: 'The palette for the office walls' }, alice);
    await env.server.ok('POST', '/api/v1/messages', { type: 'direct', to: [bob.id], content: 'Which palette do you like?' }, alice);
  });

  afterEach(async (t) => {
    await shotsAfterTest(t.name, { bob: page });
  });

  after(async () => {
    await env?.close();
  });

  const box = (p: Page) => p.getByRole('searchbox', { name: 'Search', exact: true });
  const results = (p: Page) => p.getByRole('main').getByRole('article');
  const found = async (p: Page) => (await results(p).allInnerTexts()).map((t) => /(The teal|A palette|The palette|Which palette)[^\n]*/.exec(t)?.[0]).sort();

  async function person(hash: string, viewport?: { width: number; height: number }): Promise<Person> {
    const p = await logIn(env, bob.email, bob.password!, viewport, hash);
    page = p.page;
    return p;
  }

  test('a search from a stream searches that stream; its operator can be removed to search everywhere', async () => {
    const p = await person(`#narrow/channel/${designId}-design`);
    await p.page.getByRole('heading', { name: '#design' }).waitFor();
    await p.page.getByRole('main').getByRole('heading').click();
    await p.page.keyboard.press('/');
    assert.equal(await box(p.page).inputValue(), 'stream:design ');
    await box(p.page).press('End');
    await box(p.page).pressSequentially('palette');
    await box(p.page).press('Enter');
    await p.page.getByRole('heading', { name: 'Search results for stream:design palette' }).waitFor();
    await results(p.page).filter({ hasText: 'A palette of fonts' }).waitFor();
    assert.deepEqual(await found(p.page), ['A palette of fonts', 'The teal palette is final']);
    // Without the operator, everywhere.
    await box(p.page).fill('palette');
    await box(p.page).press('Enter');
    await results(p.page).filter({ hasText: 'Which palette' }).waitFor();
    assert.deepEqual(await found(p.page), ['A palette of fonts', 'The palette for the office walls', 'The teal palette is final', 'Which palette do you like?']);
    await p.context.close();
  });

  test('a search from a topic or a direct message conversation starts with its operators; leaving the box unused empties it again', async () => {
    const p = await person(`#narrow/channel/${designId}-design/topic/colors`);
    await p.page.getByRole('heading', { name: '#design > colors' }).waitFor();
    await box(p.page).click();
    assert.equal(await box(p.page).inputValue(), 'stream:design topic:colors ');
    await p.page.getByRole('main').getByRole('heading').click();
    assert.equal(await box(p.page).inputValue(), '');
    await p.page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^Alice/ }).click();
    await p.page.getByRole('heading', { name: 'Direct messages with Alice' }).waitFor();
    await box(p.page).click();
    assert.equal(await box(p.page).inputValue(), `dm:${alice.email} `);
    await box(p.page).press('End');
    await box(p.page).pressSequentially('palette');
    await box(p.page).press('Enter');
    await results(p.page).filter({ hasText: 'Which palette' }).waitFor();
    assert.deepEqual(await found(p.page), ['Which palette do you like?']);
    // From All messages the box starts empty.
    await p.page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: 'All messages' }).click();
    await p.page.getByRole('heading', { name: 'All messages' }).waitFor();
    await box(p.page).click();
    assert.equal(await box(p.page).inputValue(), '');
    await p.context.close();
  });

  test('suggestions follow the word typed; arrows and Enter pick one, Escape closes them, Enter alone searches the text', async () => {
    const p = await person('#feed');
    const list = p.page.getByRole('listbox', { name: 'Suggestions' });
    await box(p.page).click();
    await box(p.page).pressSequentially('sta');
    await list.getByRole('option', { name: 'is:starred Starred messages' }).waitFor();
    // None is chosen until an arrow chooses one.
    assert.equal(await list.getByRole('option', { selected: true }).count(), 0);
    await box(p.page).press('Escape');
    await list.waitFor({ state: 'detached' });
    assert.equal(await box(p.page).inputValue(), 'sta');
    // An operator, then its operands: the streams.
    await box(p.page).fill('');
    await box(p.page).pressSequentially('strea');
    await list.getByRole('option', { name: /^stream: / }).click();
    assert.equal(await box(p.page).inputValue(), 'stream:');
    await list.getByRole('option', { name: 'stream:design #design' }).waitFor();
    const options = await list.getByRole('option').allInnerTexts();
    const design = options.findIndex((o) => o.startsWith('stream:design'));
    for (let i = 0; i <= design; i++) await box(p.page).press('ArrowDown');
    assert.equal(await list.getByRole('option', { selected: true }).innerText(), await list.getByRole('option').nth(design).innerText());
    assert.equal(await box(p.page).getAttribute('aria-activedescendant'), `suggest-search-${design}`);
    assert.deepEqual(await axeViolations(p.page), []);
    await box(p.page).press('Enter');
    await p.page.getByRole('heading', { name: '#design', exact: true }).waitFor();
    // A person by name: their messages.
    await box(p.page).click();
    await box(p.page).fill('');
    await box(p.page).pressSequentially('sender:ali');
    await list.getByRole('option', { name: `sender:${alice.email} Messages sent by Alice` }).click();
    await p.page.getByRole('heading', { name: 'Messages sent by Alice' }).waitFor();
    // Enter with none chosen searches what was typed.
    await box(p.page).fill('');
    await box(p.page).pressSequentially('teal');
    await box(p.page).press('Enter');
    await p.page.getByRole('heading', { name: 'Search results for teal' }).waitFor();
    await p.context.close();
  });

  test("in a stream's search, a word suggests the stream's topics it starts, which narrow to the topic", async () => {
    const p = await person(`#narrow/channel/${designId}-design`);
    await p.page.getByRole('heading', { name: '#design' }).waitFor();
    await box(p.page).click();
    await box(p.page).press('End');
    await box(p.page).pressSequentially('fon');
    const option = p.page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option', { name: 'topic:fonts #design > fonts' });
    await option.click();
    await p.page.getByRole('heading', { name: '#design > fonts' }).waitFor();
    await p.context.close();
  });

  test('on a phone the suggestions are on screen and whole, a person\'s name with their email, in light and dark', async () => {
    const p = await person(`#narrow/channel/${designId}-design`, { width: 390, height: 844 });
    await p.page.getByRole('heading', { name: '#design' }).waitFor();
    await box(p.page).click();
    await box(p.page).press('End');
    await box(p.page).pressSequentially('sender:');
    const list = p.page.getByRole('listbox', { name: 'Suggestions' });
    await list.getByRole('option', { name: `sender:${alice.email} Messages sent by Alice` }).waitFor();
    const b = (await list.boundingBox())!;
    assert.ok(b.x >= 0 && b.x + b.width <= 390, `suggestions at ${JSON.stringify(b)}`);
    const cut = await list.getByRole('option').evaluateAll((options) => options.filter((o) => o.scrollWidth > o.clientWidth).map((o) => o.textContent));
    assert.deepEqual(cut, []);
    for (const theme of ['light', 'dark']) {
      await p.page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      if (process.env.PARLEY_BROWSER_SHOTS) await p.page.screenshot({ path: `${process.env.PARLEY_BROWSER_SHOTS}/search-suggestions-phone-${theme}.png` });
    }
    await p.context.close();
  });
});
