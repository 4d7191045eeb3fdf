// Two people chat in two browser contexts against a real server: log in, send and receive live,
// unread counts, reading, reactions, edits, deletion, search, DMs, uploads, drafts, a server
// restart, logging out, the phone layout, and axe-core on the login page and the main view.
// Each test makes its own messages and logs its people in (`people`), so any one runs alone.
// Elements are found by role and accessible name only.
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, browserSkipReason, logIn, newContext, setUp, shotsAfterTest, twoAccounts, until, type Env, type Person } from './harness.ts';
import type { Account } from '../../../test/helpers/server.ts';

const skip = browserSkipReason();
if (skip) console.log(`# browser tests skipped: ${skip}`);

describe('the web client', { skip: skip ?? false }, () => {
  let env: Env;
  let aliceAccount: Account;
  let bobAccount: Account;
  const pw = (name: string) => `pw-${name}-secret`;
  const streamId = async (name: string) => (await env.server.ok('GET', '/api/v1/get_stream_id', { stream: name })).stream_id as number;
  /** The URL of a topic. */
  const topicHash = async (stream: string, topic: string) => `#narrow/channel/${await streamId(stream)}-${stream}/topic/${encodeURIComponent(topic)}`;
  /** Sends as someone through the API (what a test starts from, not what it tests). */
  const post = async (who: Account, stream: string, topic: string, content: string) => (await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: stream, topic, content }, who)).id as number;

  /**
   * Alice, Bob or both logged in for one test, each in a browser context of their own on `hash`;
   * with PARLEY_BROWSER_SHOTS their screens are saved after the test, then the contexts close.
   * Each test sets up what it needs, so any one runs alone (--test-name-pattern).
   */
  async function people(t: TestContext, hashes: { alice?: string; bob?: string }): Promise<{ alice: Person; bob: Person }> {
    const [alice, bob] = await Promise.all([
      hashes.alice === undefined ? undefined : logIn(env, aliceAccount.email, pw('Alice'), undefined, hashes.alice),
      hashes.bob === undefined ? undefined : logIn(env, bobAccount.email, pw('Bob'), undefined, hashes.bob),
    ]);
    t.after(async () => {
      await shotsAfterTest(t.name, { alice: alice?.page, bob: bob?.page });
      await Promise.all([alice?.context.close(), bob?.context.close()]);
    });
    return { alice: alice!, bob: bob! };
  }

  before(async () => {
    env = await setUp();
    [aliceAccount, bobAccount] = await twoAccounts(env, { names: ['Alice', 'Bob'], streams: ['general', 'design'], withOwner: true });
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'logo', content: 'Welcome to design' });
    // Members may delete their own messages here (the default leaves it to administrators).
    await env.server.ok('PATCH', '/api/v1/realm', { delete_own_message_policy: 5 });
  });

  after(async () => {
    await env?.close();
  });

  test('the login page refuses a wrong password, has no serious axe violation, and logs in', async (t) => {
    const context = await newContext(env);
    const page = await context.newPage();
    await page.goto(env.url + '/');
    await page.getByRole('textbox', { name: 'Email' }).waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await page.getByRole('textbox', { name: 'Email' }).fill(aliceAccount.email);
    await page.getByRole('textbox', { name: 'Password' }).fill('wrong');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').filter({ hasText: /incorrect/i }).waitFor();
    assert.equal(await page.getByRole('navigation', { name: 'Streams', exact: true }).count(), 0);
    await context.close();

    const { alice } = await people(t, { alice: '#feed' });
    // Reloading keeps the session.
    await alice.page.reload();
    await alice.page.getByRole('navigation', { name: 'Streams', exact: true }).waitFor();
  });

  test('the main view has no serious axe violation', async (t) => {
    const { alice } = await people(t, { alice: '#feed' });
    await alice.page.getByRole('article').first().waitFor();
    assert.deepEqual(await axeViolations(alice.page), []);
  });

  test('a message sent by Alice arrives live for Bob with an unread count, read when seen', async (t) => {
    // A stream of its own, so other tests' messages count nowhere here.
    await env.server.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'canteen' }], principals: [aliceAccount.email, bobAccount.email] });
    // Bob has read everything else, and looks at another stream, so the message stays unread for him.
    await env.server.ok('POST', '/api/v1/mark_all_as_read', {}, bobAccount);
    const { alice, bob } = await people(t, { alice: '#feed', bob: '#feed' });
    const bobNav = bob.page.getByRole('navigation', { name: 'Streams', exact: true });
    await bobNav.getByRole('link', { name: /^design/ }).click();
    await bob.page.getByRole('heading', { name: '#design' }).waitFor();
    const nav = alice.page.getByRole('navigation', { name: 'Streams', exact: true });
    await nav.getByRole('link', { name: /^canteen/ }).click();
    await alice.page.getByRole('button', { name: 'New topic' }).click();
    await alice.page.getByRole('textbox', { name: 'Topic' }).fill('lunch');
    await alice.page.getByRole('textbox', { name: 'Message' }).fill('Pizza at noon?');
    await alice.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await alice.page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Pizza at noon?' }).waitFor();
    assert.equal(await alice.page.getByRole('textbox', { name: 'Message' }).inputValue(), '');

    // The count shows in Bob's sidebar, then goes once he reads the message.
    await bobNav.getByRole('link', { name: /^canteen/ }).getByLabel('1 unread').waitFor();
    await bobNav.getByRole('link', { name: /^lunch/ }).getByLabel('1 unread').waitFor();
    assert.match(await bob.page.title(), /^\(1\) #design - /);
    await bobNav.getByRole('link', { name: /^lunch/ }).click();
    await bob.page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Pizza at noon?' }).waitFor();
    await bobNav.getByRole('link', { name: /^canteen/ }).getByLabel('1 unread').waitFor({ state: 'detached' });
  });

  test('Bob reacts; Alice sees it live and toggles the same reaction', async (t) => {
    await post(aliceAccount, 'general', 'reactions', 'Pizza at noon?');
    const hash = await topicHash('general', 'reactions');
    const { alice, bob } = await people(t, { alice: hash, bob: hash });
    const msg = bob.page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Pizza at noon?' });
    await msg.hover();
    await msg.getByRole('button', { name: 'Add reaction' }).click();
    await bob.page.getByRole('searchbox', { name: 'Search emoji' }).fill('tada');
    await bob.page.getByRole('button', { name: /^tada$/ }).first().click();
    const aliceMsg = alice.page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Pizza at noon?' });
    const reaction = aliceMsg.getByRole('button', { name: /tada: 1/ });
    await reaction.waitFor();
    await reaction.click();
    await aliceMsg.getByRole('button', { name: /tada: 2/ }).waitFor();
    await msg.getByRole('button', { name: /tada: 2/ }).waitFor();
  });

  test('the emoji picker has the width of its own stylesheet, and each of its columns shows whole, on a desk and on a small phone', async (t) => {
    await post(aliceAccount, 'general', 'picker', 'Pizza at noon?');
    const hash = await topicHash('general', 'picker');
    const { bob } = await people(t, { bob: hash });
    const phone = await logIn(env, bobAccount.email, pw('Bob'), { width: 360, height: 740 }, hash);
    t.after(() => phone.context.close());
    // 22rem; on the phone, the room left of its button (less a margin) when that is less.
    for (const [page, widths] of [[bob.page, [352, 352]], [phone.page, [280, 344]]] as const) {
      const msg = page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Pizza at noon?' });
      await msg.click();
      await msg.getByRole('button', { name: 'Add reaction' }).click();
      const picker = page.getByRole('dialog', { name: 'Add reaction' });
      await picker.getByRole('button', { name: /^tada$/ }).first().waitFor();
      const fit = await picker.evaluate((el) => {
        const grid = el.querySelector('[role=group]')!.getBoundingClientRect();
        const cut = [...el.querySelectorAll('[role=group] button')].slice(0, 40).filter((b) => b.getBoundingClientRect().right > grid.right + 0.5);
        const box = el.getBoundingClientRect();
        return { width: Math.round(box.width), cut: cut.length, onScreen: box.left >= 0 && box.right <= window.innerWidth };
      });
      assert.deepEqual({ ...fit, width: fit.width >= widths[0] && fit.width <= widths[1] }, { width: true, cut: 0, onScreen: true }, `${fit.width}px wide`);
      await page.keyboard.press('Escape');
      await picker.waitFor({ state: 'detached' });
    }
  });

  test('Alice edits her message and sees its history; Bob sees the new text', async (t) => {
    await post(aliceAccount, 'general', 'edits', 'Pizza at noon?');
    const hash = await topicHash('general', 'edits');
    const { alice, bob } = await people(t, { alice: hash, bob: hash });
    const msg = alice.page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Pizza at noon?' });
    await msg.hover();
    const messageWidth = (await msg.boundingBox())!.width;
    await msg.getByRole('button', { name: 'Message actions' }).click();
    await alice.page.getByRole('menuitem', { name: 'Edit message' }).click();
    const box = alice.page.getByRole('textbox', { name: 'Edit message content' });
    // The box takes the message's width, not the width of its first line.
    const boxWidth = (await box.boundingBox())!.width;
    assert.ok(boxWidth > messageWidth * 0.6, `edit box ${boxWidth}px in a ${messageWidth}px message`);
    await box.fill('Pizza at one?');
    await alice.page.getByRole('button', { name: 'Save' }).click();
    await bob.page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Pizza at one?' }).waitFor();
    const edited = alice.page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Pizza at one?' });
    await edited.hover();
    await edited.getByRole('button', { name: 'Message actions' }).click();
    await alice.page.getByRole('menuitem', { name: 'View edit history' }).click();
    const dialog = alice.page.getByRole('dialog', { name: 'Message edit history' });
    await dialog.getByText('Pizza at noon?').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  test('an edited message under another of the same sender shows that it was edited', async (t) => {
    await post(aliceAccount, 'design', 'pairs', 'First of two');
    const id = await post(aliceAccount, 'design', 'pairs', 'Second of two');
    await env.server.ok('PATCH', `/api/v1/messages/${id}`, { content: 'Second of two, edited' }, aliceAccount);
    const { bob } = await people(t, { bob: '#feed' });
    await bob.page.goto(`${env.url}/${await topicHash('design', 'pairs')}`);
    const second = bob.page.getByRole('article').filter({ hasText: 'Second of two, edited' });
    await second.waitFor();
    // Its sender line is for screen readers only (it follows Alice's first message); the mark is shown beside it.
    const shown = [];
    for (const mark of await second.getByText('(edited)').all()) shown.push(((await mark.boundingBox())?.width ?? 0) > 20);
    assert.ok(shown.includes(true), `marks shown: ${JSON.stringify(shown)}`);
    await bob.page.goBack();
    await bob.page.waitForURL((u) => !u.hash.includes('pairs'));
  });

  test("a starred message's star stands beside its time, not over it", async () => {
    const { stream_id } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
    const { id } = await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'stars', content: 'Worth a star' }, aliceAccount);
    await env.server.ok('POST', '/api/v1/messages/flags', { messages: [id], op: 'add', flag: 'starred' }, bobAccount);
    // In 12-hour time, whose text is the widest.
    await env.server.ok('PATCH', '/api/v1/settings', { twenty_four_hour_time: false }, bobAccount);
    const p = await logIn(env, bobAccount.email, pw('Bob'), undefined, `#narrow/channel/${stream_id}-design/topic/stars`);
    const msg = p.page.locator(`article[data-id="${id}"]`);
    const star = (await msg.getByRole('img', { name: 'Starred' }).boundingBox())!;
    const time = (await msg.getByRole('link', { name: /\d:\d\d/ }).boundingBox())!;
    const text = (await msg.getByText('Worth a star').boundingBox())!;
    assert.ok(star.x + star.width <= time.x, `star ${JSON.stringify(star)}, time ${JSON.stringify(time)}`);
    // And its text does not run under them.
    const content = await msg.locator('.content').evaluate((el) => el.getBoundingClientRect().right);
    assert.ok(content <= star.x && text.x < star.x, `text to ${content}, star at ${star.x}`);
    await p.context.close();
  });

  test('Alice stars and deletes a message; it disappears for Bob', async (t) => {
    await post(bobAccount, 'general', 'mistakes', 'Where does this go?');
    const hash = await topicHash('general', 'mistakes');
    const { alice, bob } = await people(t, { alice: hash, bob: hash });
    const page = alice.page;
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('oops, wrong topic');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const bobMsg = bob.page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'oops, wrong topic' });
    await bobMsg.waitFor();
    const msg = page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'oops, wrong topic' });
    await msg.hover();
    await msg.getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menuitem', { name: 'Star message' }).click();
    await msg.getByRole('img', { name: 'Starred' }).waitFor();
    await msg.getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete message' }).click();
    // The confirmation's focus is on Cancel: Enter does not delete.
    const confirm = page.getByRole('dialog', { name: 'Delete message?' });
    assert.equal(await confirm.getByRole('button', { name: 'Cancel' }).evaluate((el) => el === document.activeElement), true);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await bobMsg.waitFor({ state: 'detached' });
    await msg.waitFor({ state: 'detached' });
  });

  test('search finds a message and highlights the match', async () => {
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'colors', content: 'The teal palette is final' }, aliceAccount);
    // Its own login (it used the state of earlier tests).
    const { page, context } = await logIn(env, bobAccount.email, pw('Bob'));
    const search = page.getByRole('searchbox', { name: 'Search', exact: true });
    await search.fill('palette');
    await search.press('Enter');
    const hit = page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'The teal palette is final' });
    await hit.waitFor();
    // The match is marked in the rendered content the search answered with.
    assert.match(await hit.innerHTML(), /<span class="highlight">palette<\/span>/);
    assert.match(page.url(), /#narrow\/search\/palette/);
    assert.equal(await page.getByRole('main').getByRole('article').count(), 1);
    // Results are not a conversation: no "beginning of the conversation" above them.
    assert.equal(await page.getByText('This is the beginning of the conversation.').count(), 0);
    // Back returns to the previous narrow.
    await page.goBack();
    await page.waitForURL((u) => !u.hash.includes('search'));
    await page.getByRole('heading', { name: 'All messages' }).waitFor();
    await context.close();
  });

  test('a search for a sender typed by name finds their messages (it led to All messages, the query gone)', async () => {
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'swatches', content: 'The mauve swatch is approved' }, aliceAccount);
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'swatches', content: 'The mauve swatch is too dark' }, bobAccount);
    const p = await logIn(env, bobAccount.email, pw('Bob'));
    const search = p.page.getByRole('searchbox', { name: 'Search', exact: true });
    await search.fill('sender:alice mauve');
    await search.press('Enter');
    await p.page.getByRole('heading', { name: /^Search results for/ }).waitFor();
    await p.page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'The mauve swatch is approved' }).waitFor();
    assert.equal(await p.page.getByRole('article').filter({ hasText: 'The mauve swatch is too dark' }).count(), 0);
    assert.match(await search.inputValue(), /^sender:.+ mauve$/);
    await p.context.close();
  });

  test('only a conversation says where it begins: a topic or a direct message conversation, not Starred, Mentions or All messages', async () => {
    const carl = await env.server.createUser('Carl');
    await env.server.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'design' }] }, carl);
    const { id } = await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'beginnings', content: `Starred by @**Carl|${carl.id}**` }, aliceAccount);
    await env.server.ok('POST', '/api/v1/messages', { type: 'direct', to: [carl.id], content: 'Hello Carl' }, aliceAccount);
    await env.server.ok('POST', '/api/v1/messages/flags', { messages: [id], op: 'add', flag: 'starred' }, carl);
    const { stream_id } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
    const p = await logIn(env, carl.email, carl.password!, undefined, '#narrow/is/starred');
    const beginning = p.page.getByRole('main').getByText('This is the beginning of the conversation.');
    for (const [hash, heading, shown] of [
      ['#narrow/is/starred', 'Starred messages', false],
      ['#narrow/is/mentioned', 'Mentions', false],
      ['#feed', 'All messages', false],
      [`#narrow/channel/${stream_id}-design/topic/beginnings`, '#design > beginnings', true],
      [`#narrow/dm/${aliceAccount.id}-Alice`, 'Direct messages with Alice', true],
    ] as const) {
      await p.page.evaluate((h) => (location.hash = h), hash);
      await p.page.getByRole('heading', { name: heading }).waitFor();
      await p.page.getByRole('main').getByRole('article').first().waitFor();
      if (shown) await beginning.waitFor();
      else assert.equal(await beginning.count(), 0, heading);
    }
    await p.context.close();
  });

  test('a search that finds nothing says so, and an empty Starred view says how to fill it', async () => {
    const { page, context } = await logIn(env, bobAccount.email, pw('Bob'));
    const search = page.getByRole('searchbox', { name: 'Search', exact: true });
    await search.fill('xylophone');
    await search.press('Enter');
    await page.getByRole('main').getByText('No messages match this search.').waitFor();
    await context.close();
    const dana = await env.server.createUser('Dana');
    const fresh = await logIn(env, dana.email, dana.password!, undefined, '#narrow/is/starred');
    await fresh.page.getByRole('main').getByText(/^No starred messages\. Star a message from its actions menu/).waitFor();
    await fresh.context.close();
  });

  test('a link to a stream that is not there says so in words, with the way to the streams there are', async () => {
    const { page, context } = await logIn(env, bobAccount.email, pw('Bob'), undefined, '#narrow/stream/old-name/topic/plans');
    const alert = page.getByRole('main').getByRole('alert');
    await alert.filter({ hasText: 'There is no stream named “old-name” that you can see' }).waitFor();
    assert.doesNotMatch(await alert.innerText(), /Invalid narrow/);
    await alert.getByRole('link', { name: 'Browse streams' }).click();
    await page.getByRole('heading', { name: 'Your streams', level: 2 }).waitFor();
    await context.close();
  });

  test('a link to a stream ID that is not there, opened at login, says so as soon as the streams are known', async () => {
    const dana = await env.server.createUser('Dana');
    const p = await logIn(env, dana.email, dana.password!, undefined, '#narrow/channel/99999-gone/topic/plans');
    const main = p.page.getByRole('main');
    // At once, not after a fetch: the app knows which streams there are.
    await main.getByRole('alert').filter({ hasText: 'There is no stream named “gone” that you can see' }).waitFor({ timeout: 1000 });
    assert.equal(await main.getByText('Loading messages…').count(), 0);
    await main.getByRole('heading', { name: '#gone > plans' }).waitFor();
    // Compose there leaves the stream to choose (it addressed "#stream 99999").
    await p.page.getByRole('button', { name: 'Compose', exact: true }).click();
    const stream = p.page.getByRole('combobox', { name: 'Stream' });
    assert.equal(await stream.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.textContent), 'Choose a stream');
    assert.equal(await p.page.getByRole('textbox', { name: 'Message' }).getAttribute('placeholder'), 'Message (choose a stream first)');
    await p.context.close();
  });

  test('a DM from Alice to Bob shows under Direct messages with its count', async (t) => {
    // Bob looks at a stream, where the DM does not show (and is not read).
    const { alice, bob } = await people(t, { alice: '#feed', bob: `#narrow/channel/${await streamId('design')}-design` });
    const page = alice.page;
    await page.getByRole('complementary', { name: 'Users' }).getByRole('button', { name: /Bob/ }).click();
    await page.getByRole('dialog', { name: 'Bob' }).getByRole('button', { name: 'Send a direct message' }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('Just between us');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Just between us' }).waitFor();
    const dmLink = bob.page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^Alice/ });
    await dmLink.getByLabel('1 unread').waitFor();
    await dmLink.click();
    await bob.page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Just between us' }).waitFor();
    await dmLink.getByLabel('1 unread').waitFor({ state: 'detached' });
  });

  test("a message's sender opens their profile (role, email, local time, profile fields), which leads to their messages and a DM", async (t) => {
    const { id: field } = await env.server.ok('POST', '/api/v1/realm/profile_fields', { name: 'Team', field_type: 1, hint: '' });
    await env.server.ok('PATCH', '/api/v1/users/me/profile_data', { data: [{ id: field, value: 'Platform' }] }, aliceAccount);
    await env.server.ok('PATCH', '/api/v1/settings', { timezone: 'Asia/Tokyo' }, aliceAccount);
    const { stream_id } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'profiles', content: 'Who am I?' }, aliceAccount);
    const { bob } = await people(t, { bob: '#feed' });
    const page = bob.page;
    await page.goto(`${env.url}/#narrow/channel/${stream_id}-design/topic/profiles`);
    const msg = page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Who am I?' });
    await msg.getByRole('button', { name: 'Alice' }).click();
    const card = page.getByRole('dialog', { name: 'Alice' });
    await card.waitFor();
    assert.deepEqual(await axeViolations(page), []);
    const facts = Object.fromEntries(
      await card.locator('dt').evaluateAll((dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])),
    ) as Record<string, string>;
    const tokyo = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', hourCycle: 'h12', timeZone: 'Asia/Tokyo' });
    assert.equal(facts.Role, 'Member');
    assert.equal(facts.Email, aliceAccount.email);
    assert.equal(facts.Team, 'Platform');
    assert.ok([Date.now() - 60_000, Date.now()].map((t) => tokyo.format(t)).includes(facts['Local time']!), `local time ${facts['Local time']}`);
    // Escape closes it; u opens it again for the selected message.
    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });
    await msg.getByText('Who am I?').click();
    await page.keyboard.press('u');
    await card.getByRole('button', { name: 'View messages' }).click();
    await page.getByRole('heading', { name: 'Messages sent by Alice' }).waitFor();
    await page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Who am I?' }).getByRole('button', { name: 'Alice' }).click();
    await card.getByRole('button', { name: 'Send a direct message' }).click();
    await card.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Direct messages with Alice' }).waitFor();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message');
  });

  test('the message box grows with its text up to 40% of the window, then scrolls, and is small again once sent', async (t) => {
    const { alice } = await people(t, { alice: '#feed' });
    const page = alice.page;
    const { stream_id } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
    await page.goto(`${env.url}/#narrow/channel/${stream_id}-design/topic/long%20notes`);
    await page.getByRole('heading', { name: '#design > long notes' }).waitFor();
    if ((await page.getByRole('button', { name: 'Close compose' }).count()) > 0) await page.getByRole('button', { name: 'Close compose' }).click();
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    const size = () => box.evaluate((el) => ({ height: el.getBoundingClientRect().height, scrolls: el.scrollHeight > el.clientHeight }));
    const empty = await size();
    await box.fill(Array.from({ length: 8 }, (_, i) => `point ${i + 1}`).join('\n'));
    const eight = await size();
    assert.ok(eight.height > empty.height + 60 && !eight.scrolls, `eight lines: ${JSON.stringify(eight)}, empty: ${JSON.stringify(empty)}`);
    await box.fill(Array.from({ length: 60 }, (_, i) => `point ${i + 1}`).join('\n'));
    const sixty = await size();
    assert.ok(Math.abs(sixty.height - 320) <= 2 && sixty.scrolls, `sixty lines: ${JSON.stringify(sixty)}`);
    await box.press('Enter');
    await page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'point 60' }).waitFor();
    assert.equal((await size()).height, empty.height);
  });

  test('a message sent to a conversation not on screen says where it went, with a way there', async (t) => {
    const { alice } = await people(t, { alice: await topicHash('design', 'logo') });
    const page = alice.page;
    const notice = page.getByRole('region', { name: 'Compose' }).getByRole('status').filter({ hasText: 'Sent to' });
    await page.getByRole('article').filter({ hasText: 'Welcome to design' }).waitFor();
    // A message to the conversation on screen: no notice.
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('Said where it shows');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Said where it shows' }).waitFor();
    assert.equal(await notice.count(), 0);
    await page.getByRole('button', { name: 'Close compose' }).click();
    await page.getByRole('button', { name: 'New direct message' }).click();
    const to = page.getByRole('textbox', { name: 'To' });
    await to.pressSequentially('bo');
    await page.getByRole('option', { name: /Bob/ }).waitFor();
    await to.press('Enter');
    await page.getByRole('textbox', { name: 'Message' }).fill('Sent from the design stream');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await notice.filter({ hasText: 'Sent to Bob.' }).waitFor();
    // Still on the topic; the notice's button goes to the conversation, and the notice goes.
    await page.getByRole('heading', { name: '#design > logo' }).waitFor();
    await notice.getByRole('button', { name: 'Go to conversation' }).click();
    await page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Sent from the design stream' }).waitFor();
    await notice.waitFor({ state: 'detached' });
  });

  test('Bob sees Alice typing, and a file Alice attaches becomes a link', async (t) => {
    const { alice, bob } = await people(t, { alice: `#narrow/dm/${bobAccount.id}-Bob`, bob: `#narrow/dm/${aliceAccount.id}-Alice` });
    const page = alice.page;
    await page.getByRole('button', { name: 'Compose', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message' }).pressSequentially('I am writing');
    await bob.page.getByText('Alice is typing…').waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('');
    await page.getByLabel('Attach files').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello file') });
    const box = page.getByRole('textbox', { name: 'Message' });
    await page.waitForFunction(() => (document.querySelector('textarea[aria-label="Message"]') as HTMLTextAreaElement | null)?.value.includes('/user_uploads/'));
    assert.match(await box.inputValue(), /\[notes\.txt\]\(\/user_uploads\/.+notes\.txt\)/);
    await box.press('Enter');
    await bob.page.getByRole('article', { name: /Alice/ }).getByRole('link', { name: 'notes.txt' }).waitFor();
    await bob.page.getByText('Alice is typing…').waitFor({ state: 'detached' });
  });

  test('an unsent message is kept as a draft and restored', async (t) => {
    const { alice } = await people(t, { alice: '#feed' });
    const page = alice.page;
    await page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^design/ }).click();
    await page.getByRole('button', { name: 'New topic' }).click();
    await page.getByRole('textbox', { name: 'Topic' }).fill('drafts');
    await page.getByRole('textbox', { name: 'Message' }).fill('A thought for later');
    await page.getByText('Draft saved').waitFor();
    await page.reload();
    await page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^Drafts/ }).click();
    const draft = page.getByRole('article', { name: /Draft to #design/ });
    await draft.getByText('A thought for later').waitFor();
    await draft.getByRole('button', { name: 'Restore draft' }).click();
    assert.equal(await page.getByRole('textbox', { name: 'Message' }).inputValue(), 'A thought for later');
    await page.getByRole('button', { name: 'Close compose' }).click();
  });

  test('after a server restart the app reconnects and receives new messages', async (t) => {
    const { bob } = await people(t, { bob: '#feed' });
    await env.restart();
    // A dropped connection is announced while the server is away, then recovered.
    const sent = await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'lunch', content: 'Back after the restart' }, aliceAccount);
    await bob.page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^general/ }).click();
    await bob.page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Back after the restart' }).waitFor({ timeout: 20_000 });
    assert.equal(await bob.page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Back after the restart' }).count(), 1);
    await bob.page.getByText('Reconnecting…').waitFor({ state: 'detached' });
    void sent;
  });

  test('a lost connection shows the reconnecting banner and recovers by itself', async (t) => {
    const { bob } = await people(t, { bob: '#feed' });
    await bob.page.getByRole('main').getByRole('article').first().waitFor();
    const port = env.relay.target;
    env.relay.target = 1; // nothing listens there: requests fail until it points back
    env.relay.cut();
    await bob.page.getByText('Reconnecting…').waitFor({ timeout: 15_000 });
    env.relay.target = port;
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'lunch', content: 'Connection is back' }, aliceAccount);
    await bob.page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Connection is back' }).waitFor({ timeout: 30_000 });
    await bob.page.getByText('Reconnecting…').waitFor({ state: 'detached' });
  });

  test('messages the network failed to load come once it answers again, with no reload', async (t) => {
    const context = await newContext(env);
    const page = await context.newPage();
    t.after(() => context.close());
    // The first page of the feed fails as a dropped connection would; the rest of the app is reachable.
    let failed = 0;
    await page.route(/\/json\/messages\?/, (route) => (failed++ === 0 ? route.abort('connectionfailed') : route.fallback()));
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'lunch', content: 'Loaded on the second try' }, aliceAccount);
    await page.goto(`${env.url}/#feed`);
    await page.getByRole('textbox', { name: 'Email' }).fill(bobAccount.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(pw('Bob'));
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Could not load messages: the server cannot be reached; trying again…' }).waitFor();
    await page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Loaded on the second try' }).waitFor({ timeout: 15_000 });
    assert.equal(await page.getByRole('alert').filter({ hasText: 'Could not load messages' }).count(), 0);
  });

  test('scrolling up loads older history without moving what is on screen', async (t) => {
    const { alice } = await people(t, { alice: '#feed' });
    const page = alice.page;
    for (let i = 0; i < 260; i++) await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'history', content: `History ${i}` });
    await env.server.ok('POST', '/api/v1/mark_all_as_read', {}, aliceAccount);
    const { stream_id } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
    await page.goto(`${env.url}/#narrow/channel/${stream_id}-design/topic/history`);
    await page.getByRole('article').filter({ hasText: 'History 259' }).waitFor();
    const main = page.getByRole('main');
    assert.equal(await main.getByRole('article').filter({ hasText: /History 0$/ }).count(), 0);
    // At the top of what is loaded, older messages come in above without moving the view.
    const toTop = () =>
      main.evaluate((m) => {
        const scroller = [...m.querySelectorAll('div')].find((d) => getComputedStyle(d).overflowY === 'auto')!;
        scroller.scrollTop = 0;
        const first = scroller.querySelector('article')!;
        return { text: first.textContent ?? '', y: first.getBoundingClientRect().top };
      });
    const before = await toTop();
    const firstText = before.text.match(/History \d+/)![0];
    await page.waitForFunction((t) => !document.querySelector('main article')?.textContent?.includes(t), firstText);
    // Measured two frames later, once the view has settled (a loaded machine may render the
    // older messages and the restored position in separate frames).
    await page.waitForFunction(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true)))));
    const after = await main.getByRole('article').filter({ hasText: new RegExp(`${firstText}$`) }).boundingBox();
    assert.ok(after && Math.abs(after.y - before.y) < 3, `the message on screen moved from ${before.y} to ${after?.y}`);
    for (let i = 0; i < 20 && (await main.getByRole('article').filter({ hasText: /History 0$/ }).count()) === 0; i++) {
      await toTop();
      await page.waitForTimeout(300);
    }
    await main.getByRole('article').filter({ hasText: /History 0$/ }).first().waitFor();
  });

  test('keyboard: ? lists the shortcuts, c composes to the topic with typeahead, Esc closes, / searches', async (t) => {
    await post(bobAccount, 'general', 'lunch', 'Soup or salad?');
    const { alice } = await people(t, { alice: '#feed' });
    const page = alice.page;
    await page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^general/ }).click();
    await page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^lunch/ }).click();
    await page.getByRole('heading', { name: '#general > lunch' }).waitFor();
    await page.getByRole('main').getByRole('heading').click();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    await page.keyboard.press('c');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Topic' }).inputValue(), 'lunch');
    assert.ok(await box.evaluate((el) => el === document.activeElement));
    await box.pressSequentially('Hi @Bo');
    await page.getByRole('option', { name: /Bob/ }).waitFor();
    await box.press('Enter');
    assert.equal(await box.inputValue(), `Hi @**Bob|${bobAccount.id}** `);
    await box.press('Escape');
    await box.waitFor({ state: 'detached' });
    await page.keyboard.press('/');
    assert.ok(await page.getByRole('searchbox', { name: 'Search', exact: true }).evaluate((el) => el === document.activeElement));
    await page.keyboard.press('Escape');
  });

  test('+ toggles a thumbs up on the selected message, and the shortcuts overlay lists it', async () => {
    const { stream_id } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'plus one', content: 'Ship it on Friday?' }, aliceAccount);
    const p = await logIn(env, bobAccount.email, pw('Bob'), undefined, `#narrow/channel/${stream_id}-design/topic/plus%20one`);
    const msg = p.page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'Ship it on Friday?' });
    await msg.getByText('Ship it on Friday?').click();
    await p.page.keyboard.press('+');
    const reaction = msg.getByRole('button', { name: 'thumbs up: 1' });
    await reaction.waitFor();
    assert.equal(await reaction.getAttribute('aria-pressed'), 'true');
    // Alice sees it live.
    const alicePage = await logIn(env, aliceAccount.email, pw('Alice'), undefined, `#narrow/channel/${stream_id}-design/topic/plus%20one`);
    await alicePage.page.getByRole('article', { name: /Alice/ }).getByRole('button', { name: 'thumbs up: 1' }).waitFor();
    // Again: it goes.
    await p.page.keyboard.press('+');
    await reaction.waitFor({ state: 'detached' });
    await alicePage.page.getByRole('article', { name: /Alice/ }).getByRole('button', { name: 'thumbs up: 1' }).waitFor({ state: 'detached' });
    await alicePage.context.close();
    await p.page.keyboard.press('?');
    const help = p.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    const row = help.getByRole('row').filter({ hasText: 'thumbs up' });
    assert.equal(await row.locator('kbd').allTextContents().then((k) => k.join(' ')), '+');
    await p.page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    await p.context.close();
  });

  test("a message selected with the arrow keys shows whole, not under its topic's sticky bar", async () => {
    const { stream_id } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
    for (let i = 1; i <= 30; i++) await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'arrows', content: `Step ${i} of the plan` }, i % 2 ? aliceAccount : bobAccount);
    const p = await logIn(env, bobAccount.email, pw('Bob'), undefined, `#narrow/channel/${stream_id}-design/topic/arrows`);
    // The whole topic is in the list, and the click's selection is the one in force (not the
    // first unread message the list may select once it has loaded).
    await p.page.getByText('Step 1 of the plan', { exact: true }).waitFor({ state: 'attached' });
    const selectedText = () => p.page.locator('article.message.selected .rendered').textContent({ timeout: 1000 }).catch(() => null);
    await until('the clicked message to be selected', async () => {
      await p.page.getByText('Step 30 of the plan', { exact: true }).click();
      return (await selectedText())?.trim() === 'Step 30 of the plan';
    });
    // Going up, the list scrolls to keep the selected message in sight, its top edge the last to show.
    for (let i = 0; i < 20; i++) await p.page.keyboard.press('ArrowUp');
    await until('Step 10 to be selected', async () => (await selectedText())?.trim() === 'Step 10 of the plan');
    const selected = p.page.locator('article.message.selected');
    await until('the selected message to settle', async () => (await selected.evaluate((el) => el.getBoundingClientRect().top)) > 0);
    const uncovered = await selected.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const at = document.elementFromPoint(r.left + r.width / 2, r.top + 2);
      return { ok: at !== null && el.contains(at), at: at?.textContent?.slice(0, 40) };
    });
    assert.ok(uncovered.ok, `the selected message's top is under ${JSON.stringify(uncovered.at)}`);
    await p.context.close();
  });

  test('a user group in the @-mention suggestions says it is a group, with its description', async () => {
    const { stream_id } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
    const bobId = (await env.server.ok('GET', '/api/v1/users/me', undefined, bobAccount)).user_id as number;
    await env.server.ok('POST', '/api/v1/user_groups/create', { name: 'reviewers', description: 'Read every pull request', members: [bobId] });
    const p = await logIn(env, aliceAccount.email, pw('Alice'), undefined, `#narrow/channel/${stream_id}-design/topic/groups`);
    await p.page.getByRole('button', { name: 'Compose', exact: true }).click();
    const box = p.page.getByRole('textbox', { name: 'Message' });
    await box.pressSequentially('Please look @revie');
    await p.page.getByRole('option', { name: 'reviewers User group · Read every pull request', exact: true }).waitFor();
    await box.press('Enter');
    assert.equal(await box.inputValue(), 'Please look @*reviewers* ');
    await p.context.close();
  });

  test("a mention of a group you are in is marked like a mention of you, and follows your joining the group", async () => {
    const { stream_id } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
    await env.server.ok('POST', '/api/v1/user_groups/create', { name: 'pill-in', description: 'Bob is in it', members: [bobAccount.id] });
    await env.server.ok('POST', '/api/v1/user_groups/create', { name: 'pill-out', description: 'Bob is not', members: [aliceAccount.id] });
    const outId = ((await env.server.ok('GET', '/api/v1/user_groups')).user_groups as { id: number; name: string }[]).find((g) => g.name === 'pill-out')!.id;
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'group pills', content: `@**Bob|${bobAccount.id}**, @*pill-in* and @*pill-out*` }, aliceAccount);
    const p = await logIn(env, bobAccount.email, pw('Bob'), undefined, `#narrow/channel/${stream_id}-design/topic/group%20pills`);
    const msg = p.page.getByRole('article', { name: /Alice/ });
    const background = (text: string) => msg.getByText(text, { exact: true }).evaluate((el) => getComputedStyle(el).backgroundColor);
    const mine = await background('@Bob');
    assert.equal(await background('@pill-in'), mine);
    assert.notEqual(await background('@pill-out'), mine);
    await env.server.ok('POST', `/api/v1/user_groups/${outId}/members`, { add: [bobAccount.id] });
    await until('the group Bob joined to be marked', async () => (await background('@pill-out')) === mine);
    await p.context.close();
  });

  test('a topic moved while open follows to its new name, with the message being written addressed there', async () => {
    const { stream_id } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
    const { id } = await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'launch plan', content: 'Launch on Monday?' }, aliceAccount);
    const p = await logIn(env, bobAccount.email, pw('Bob'), undefined, `#narrow/channel/${stream_id}-design/topic/launch%20plan`);
    await p.page.getByRole('article').filter({ hasText: 'Launch on Monday?' }).waitFor();
    await p.page.getByRole('button', { name: 'Compose', exact: true }).click();
    await p.page.getByRole('textbox', { name: 'Message' }).fill('Tuesday suits me');
    const historyLength = await p.page.evaluate(() => history.length);
    await env.server.ok('PATCH', `/api/v1/messages/${id}`, { topic: 'launch date', propagate_mode: 'change_all' }, aliceAccount);
    // The view follows (it was left on the old topic, empty), and so does compose.
    await p.page.getByRole('heading', { name: '#design > launch date' }).waitFor();
    await p.page.getByRole('article').filter({ hasText: 'Launch on Monday?' }).waitFor();
    assert.equal(await p.page.getByRole('textbox', { name: 'Topic' }).inputValue(), 'launch date');
    await p.page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await p.page.getByRole('article').filter({ hasText: 'Tuesday suits me' }).waitFor();
    const sent = (await env.server.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: 'sender', operand: bobAccount.id }]) }, bobAccount)).messages as { subject: string; content: string }[];
    assert.equal(sent[0]?.subject, 'launch date');
    // In place of the old topic in the history: Back does not lead to it, empty.
    assert.equal(await p.page.evaluate(() => history.length), historyLength);
    await p.context.close();
  });

  test('a topic moved from a later message on leaves the view where it is, unless the selected message went with it', async () => {
    const { stream_id } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
    const send = async (content: string) => (await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'split plan', content }, aliceAccount)).id as number;
    const first = await send('First part of the plan');
    const second = await send('Second part of the plan');
    const p = await logIn(env, bobAccount.email, pw('Bob'), undefined, `#narrow/channel/${stream_id}-design/topic/split%20plan`);
    const selected = () => p.page.locator('article.message.selected .rendered').textContent({ timeout: 1000 }).catch(() => null);
    await until('the first message to be selected', async () => {
      await p.page.getByText('First part of the plan', { exact: true }).click();
      return (await selected())?.trim() === 'First part of the plan';
    });
    await env.server.ok('PATCH', `/api/v1/messages/${second}`, { topic: 'split plan, part two', propagate_mode: 'change_later' }, aliceAccount);
    await p.page.getByRole('article').filter({ hasText: 'Second part of the plan' }).waitFor({ state: 'detached' });
    assert.equal(await p.page.getByRole('heading', { name: '#design > split plan' }).count(), 1);
    // The selected message moving takes the view along.
    await env.server.ok('PATCH', `/api/v1/messages/${first}`, { topic: 'split plan, part one', propagate_mode: 'change_later' }, aliceAccount);
    await p.page.getByRole('heading', { name: '#design > split plan, part one' }).waitFor();
    await until('the moved message to stay selected', async () => (await selected())?.trim() === 'First part of the plan');
    await p.context.close();
  });

  test("e on someone else's message says it cannot be edited, rather than nothing", async () => {
    const { stream_id } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'not yours', content: 'Written by Alice' }, aliceAccount);
    const p = await logIn(env, bobAccount.email, pw('Bob'), undefined, `#narrow/channel/${stream_id}-design/topic/not%20yours`);
    await p.page.getByRole('article', { name: /Alice/ }).getByText('Written by Alice').click();
    await p.page.keyboard.press('e');
    await p.page.getByRole('status').filter({ hasText: 'You can only edit your own messages.' }).waitFor();
    assert.equal(await p.page.getByRole('textbox', { name: 'Edit message content' }).count(), 0);
    await p.context.close();
    // On a phone the words take one line, as wide as they need (they were held to half the screen).
    const phone = await logIn(env, bobAccount.email, pw('Bob'), { width: 390, height: 844 }, `#narrow/channel/${stream_id}-design/topic/not%20yours`);
    await phone.page.getByRole('article', { name: /Alice/ }).getByText('Written by Alice').click();
    await phone.page.keyboard.press('e');
    const toast = phone.page.getByRole('status').getByText('You can only edit your own messages.');
    await toast.waitFor();
    const box = (await toast.boundingBox())!;
    assert.ok(box.height < 40 && box.x >= 0 && box.x + box.width <= 390, `toast at ${JSON.stringify(box)}`);
    await phone.context.close();
  });

  test('a toast covers neither the header nor the compose buttons nor the open compose box, on a desk and on a phone', async () => {
    const { stream_id } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'toasts', content: 'Not editable by Bob' }, aliceAccount);
    const overlap = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
      a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      const p = await logIn(env, bobAccount.email, pw('Bob'), viewport, `#narrow/channel/${stream_id}-design/topic/toasts`);
      const toast = p.page.getByRole('status').getByText('You can only edit your own messages.');
      const showToast = async () => {
        await p.page.getByRole('article', { name: /Alice/ }).getByText('Not editable by Bob').click();
        await p.page.keyboard.press('e');
        await toast.waitFor();
        return (await toast.boundingBox())!;
      };
      const header = (await p.page.getByRole('banner').boundingBox())!;
      let box = await showToast();
      for (const name of ['Compose', 'New topic', 'New direct message']) {
        const button = (await p.page.getByRole('button', { name, exact: true }).boundingBox())!;
        assert.ok(!overlap(box, button), `${viewport.width}px: the toast ${JSON.stringify(box)} covers ${name} ${JSON.stringify(button)}`);
      }
      assert.ok(!overlap(box, header), `${viewport.width}px: the toast ${JSON.stringify(box)} covers the header ${JSON.stringify(header)}`);
      await p.page.getByRole('button', { name: 'Compose', exact: true }).click();
      const compose = (await p.page.getByRole('region', { name: 'Compose' }).boundingBox())!;
      box = await showToast();
      assert.ok(!overlap(box, compose), `${viewport.width}px: the toast ${JSON.stringify(box)} covers the compose box ${JSON.stringify(compose)}`);
      await p.context.close();
    }
  });

  test('a person in the user list opens their profile, by click or keyboard, and a DM from there', async () => {
    const carol = await env.server.createUser('Carol');
    const p = await logIn(env, bobAccount.email, pw('Bob'));
    const person = p.page.getByRole('complementary', { name: 'Users' }).getByRole('button', { name: /^C?Carol/ });
    const card = p.page.getByRole('dialog', { name: 'Carol' });
    await person.click();
    await card.getByText(carol.email).waitFor();
    // The list's click did not go to the DM with Carol.
    assert.equal(await p.page.getByRole('heading', { name: 'Direct messages with Carol' }).count(), 0);
    await p.page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached' });
    assert.equal(await person.evaluate((el) => el === document.activeElement), true);
    await p.page.keyboard.press('Enter');
    const dm = card.getByRole('button', { name: 'Send a direct message' });
    await dm.waitFor();
    // The card's focus starts on its main action (it was on Close, the DM two Tabs on).
    assert.equal(await dm.evaluate((el) => el === document.activeElement), true);
    await p.page.keyboard.press('Enter');
    await p.page.getByRole('heading', { name: 'Direct messages with Carol' }).waitFor();
    await p.context.close();

    // On a phone the card opens over the users drawer.
    const phone = await logIn(env, bobAccount.email, pw('Bob'), { width: 390, height: 844 });
    await phone.page.getByRole('button', { name: 'Open users' }).click();
    await phone.page.getByRole('complementary', { name: 'Users' }).getByRole('button', { name: /^C?Carol/ }).click();
    // Its buttons fill each row they take (wrapped, the last one sat alone at the right).
    const rows = await phone.page.getByRole('dialog', { name: 'Carol' }).getByRole('button', { name: 'Close' }).evaluate((close) => {
      const row = close.parentElement!;
      const inner = row.getBoundingClientRect();
      const byLine = new Map<number, { left: number; right: number }>();
      for (const b of row.querySelectorAll('button')) {
        const r = b.getBoundingClientRect();
        const line = byLine.get(Math.round(r.top)) ?? { left: Infinity, right: -Infinity };
        byLine.set(Math.round(r.top), { left: Math.min(line.left, r.left), right: Math.max(line.right, r.right) });
      }
      return [...byLine.values()].map((l) => Math.round(l.left - inner.left) <= 1 && Math.round(inner.right - l.right) <= 1);
    });
    assert.ok(rows.length >= 1 && rows.every(Boolean), `rows filled: ${JSON.stringify(rows)}`);
    await phone.page.getByRole('dialog', { name: 'Carol' }).getByRole('button', { name: 'Send a direct message' }).click();
    await phone.page.getByRole('heading', { name: 'Direct messages with Carol' }).waitFor();
    await phone.context.close();
  });

  test("on a desk the header's buttons keep to its right edge, above the users list", async () => {
    const { page, context } = await logIn(env, aliceAccount.email, pw('Alice'));
    const header = (await page.getByRole('banner').boundingBox())!;
    const menu = (await page.getByRole('button', { name: 'Personal menu' }).boundingBox())!;
    const users = (await page.getByRole('complementary', { name: 'Users' }).boundingBox())!;
    assert.ok(header.x + header.width - (menu.x + menu.width) <= 16 && menu.x >= users.x, `menu at ${JSON.stringify(menu)}, users at ${users.x}`);
    await context.close();
  });

  test('the user list marks which one is you', async () => {
    const { page, context } = await logIn(env, aliceAccount.email, pw('Alice'));
    const users = page.getByRole('complementary', { name: 'Users' });
    assert.match(await users.getByRole('button', { name: /^A?Alice/ }).innerText(), /Alice \(you\)/);
    assert.doesNotMatch(await users.getByRole('button', { name: /^B?Bob/ }).innerText(), /\(you\)/);
    await context.close();
  });

  test('on a phone the sidebars are drawers behind named buttons', async () => {
    const phone = await logIn(env, bobAccount.email, pw('Bob'), { width: 390, height: 844 });
    const nav = phone.page.getByRole('navigation', { name: 'Streams', exact: true, includeHidden: true });
    assert.equal(await nav.isVisible(), false);
    await phone.page.getByRole('button', { name: 'Open streams' }).click();
    await nav.getByRole('link', { name: /^design/ }).click();
    await phone.page.getByRole('heading', { name: '#design' }).waitFor();
    assert.equal(await nav.isVisible(), false);
    await phone.page.getByRole('button', { name: 'Open users' }).click();
    await phone.page.getByRole('complementary', { name: 'Users' }).getByRole('button', { name: /Alice/ }).waitFor();
    await phone.context.close();
  });

  test("a sidebar name too long for its row ends in an ellipsis and is whole in the row's title", async (t) => {
    const topics = ['release notes for version 2.1 and its long tail', 'release notes for version 2.2 and its long tail'];
    for (const topic of topics) await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic, content: 'Notes' }, aliceAccount);
    const { bob } = await people(t, { bob: '#feed' });
    const nav = bob.page.getByRole('navigation', { name: 'Streams', exact: true });
    // The stream on screen lists its recent topics.
    await nav.getByRole('link', { name: /^design/ }).click();
    for (const topic of topics) {
      const link = nav.getByRole('link', { name: topic });
      await link.waitFor();
      assert.equal(await link.getAttribute('title'), topic);
      // The element that holds the words is the one that cuts them, with an ellipsis.
      const cut = await link.getByText(topic, { exact: true }).evaluate((el) => {
        const style = getComputedStyle(el);
        return { ellipsis: style.textOverflow === 'ellipsis' && style.display !== 'flex', overflows: el.scrollWidth > el.clientWidth };
      });
      assert.deepEqual(cut, { ellipsis: true, overflows: true });
    }
  });

  test('on a phone, unread DMs and mentions show on the closed drawer\'s button until read', async () => {
    const cora = await env.server.createUser('Cora');
    const phone = await logIn(env, cora.email, cora.password!, { width: 390, height: 844 }, '#recent');
    const button = phone.page.getByRole('button', { name: 'Open streams' });
    const badge = button.locator('.drawer-badge');
    assert.equal(await badge.count(), 0);
    for (const content of ['Cora, a question', 'and another']) await env.server.ok('POST', '/api/v1/messages', { type: 'direct', to: [cora.id], content }, aliceAccount);
    await badge.getByText('2').waitFor();
    assert.equal(await button.getAttribute('aria-describedby'), 'drawer-addressed');
    assert.equal(await phone.page.locator('#drawer-addressed').textContent(), '2 unread direct messages and mentions');
    assert.deepEqual(await axeViolations(phone.page), []);
    await button.click();
    await phone.page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^Alice/ }).click();
    await badge.waitFor({ state: 'detached' });
    await phone.context.close();
  });

  test('a conversation older than the twelve recent ones is in the sidebar while it has unread messages', async () => {
    const dora = await env.server.createUser('Dora');
    await env.server.ok('POST', '/api/v1/messages', { type: 'direct', to: [dora.id], content: 'Dora, an old question' }, aliceAccount);
    // Twelve newer conversations push Alice's out of the recent ones.
    for (let i = 0; i < 12; i++) {
      const other = await env.server.createUser(`Pen pal ${i}`);
      await env.server.ok('POST', '/api/v1/messages', { type: 'direct', to: [other.id], content: 'Hello' }, dora);
    }
    const person = await logIn(env, dora.email, dora.password!, undefined, '#recent');
    const dms = person.page.getByRole('navigation', { name: 'Streams', exact: true }).locator('ul.dms > li');
    await dms.filter({ hasText: 'Pen pal 11' }).waitFor();
    assert.equal(await dms.count(), 13);
    assert.match((await dms.last().textContent()) ?? '', /^Alice\s*1$/);
    await person.context.close();
  });

  test('on a phone a message\'s text takes the width beside the avatar, and the edit box shows all of a long message', async () => {
    const { stream_id } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
    const long = 'A long message that wraps over several lines on a phone, to see the text use the width of the screen and the edit box grow to hold all of it.';
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'phone widths', content: 'Short first' }, bobAccount);
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'phone widths', content: long }, bobAccount);
    const phone = await logIn(env, bobAccount.email, pw('Bob'), { width: 390, height: 844 }, `#narrow/channel/${stream_id}-design/topic/phone%20widths`);
    const id = await phone.page.getByRole('article').filter({ hasText: 'A long message that wraps' }).getAttribute('data-id');
    // By its ID: while it is edited, its text is in the edit box, where hasText does not look.
    const msg = phone.page.locator(`article[data-id="${id}"]`);
    const text = (await msg.locator('.rendered').boundingBox())!;
    // 390 px less the margins and the avatar's column: the time and the actions take none of it.
    assert.ok(text.width >= 300, `text ${text.width}px wide on a 390px screen`);
    await msg.click();
    await msg.getByRole('button', { name: 'Message actions' }).click();
    await phone.page.getByRole('menuitem', { name: 'Edit message' }).click();
    const box = msg.getByRole('textbox', { name: 'Edit message content' });
    await box.waitFor();
    const fits = await box.evaluate((el) => ({ width: el.getBoundingClientRect().width, scrolls: el.scrollHeight > el.clientHeight }));
    assert.ok(fits.width >= 300 && !fits.scrolls, `edit box ${JSON.stringify(fits)}`);
    // Nothing floats over it (the time and the actions of a message under another of its sender).
    assert.equal(await msg.getByRole('button', { name: 'Message actions' }).isVisible(), false);
    await phone.context.close();
  });

  test('on a phone a table wider than the screen scrolls sideways and keeps its words whole', async () => {
    const { stream_id } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
    const table = ['| Name | Role | Team | Location |', '|---|---|---|---|', '| Alice Wonderland | Engineer | Platform | Berlin, Germany |', '| Bob Builder | Designer | Infrastructure | San Francisco |'].join('\n');
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'phone tables', content: table }, aliceAccount);
    const phone = await logIn(env, bobAccount.email, pw('Bob'), { width: 390, height: 844 }, `#narrow/channel/${stream_id}-design/topic/phone%20tables`);
    const grid = phone.page.getByRole('article').getByRole('table');
    await grid.waitFor();
    // Each cell's words on one line each: none broken between letters.
    const broken = await grid.evaluate((t) =>
      [...t.querySelectorAll('td, th')].flatMap((cell) =>
        (cell.textContent ?? '').split(' ').filter((word) => {
          const text = cell.firstChild!;
          const at = (text.textContent ?? '').indexOf(word);
          const range = document.createRange();
          range.setStart(text, at);
          range.setEnd(text, at + word.length);
          return range.getClientRects().length > 1;
        }),
      ),
    );
    assert.deepEqual(broken, []);
    const box = await grid.evaluate((t) => {
      const b = t.parentElement!;
      return { scrolls: b.scrollWidth > b.clientWidth, focusable: b.tabIndex === 0, right: b.getBoundingClientRect().right };
    });
    assert.deepEqual({ ...box, right: box.right <= 390 }, { scrolls: true, focusable: true, right: true });
    assert.equal(await phone.page.evaluate(() => document.documentElement.scrollWidth), 390);
    await phone.context.close();
  });

  test('on a phone the compose box keeps its close button on screen, in light and dark, even for a long stream name', async () => {
    const name = 'a-stream-with-a-rather-long-name-indeed';
    await env.server.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name }], principals: [bobAccount.email] });
    const id = (await env.server.ok('GET', '/api/v1/get_stream_id', { stream: name })).stream_id as number;
    const phone = await logIn(env, bobAccount.email, pw('Bob'), { width: 390, height: 844 }, `#narrow/channel/${id}-${name}`);
    for (const theme of ['light', 'dark']) {
      await phone.page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
      for (const button of ['New topic', 'New direct message']) {
        await phone.page.getByRole('button', { name: button }).click();
        const close = phone.page.getByRole('button', { name: 'Close compose' });
        const box = await close.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${button}, ${theme}: close button at ${JSON.stringify(box)}`);
        assert.equal(await phone.page.evaluate(() => document.documentElement.scrollWidth), 390, `${button}, ${theme}: the page scrolls sideways`);
        if (process.env.PARLEY_BROWSER_SHOTS) await phone.page.screenshot({ path: `${process.env.PARLEY_BROWSER_SHOTS}/compose-phone-${button === 'New topic' ? 'stream' : 'dm'}-${theme}.png` });
        await close.click();
        await close.waitFor({ state: 'detached' });
      }
    }
    await phone.context.close();
  });

  test("a bot's profile names its owner and shows no presence", async (t) => {
    const bot = await env.server.ok('POST', '/api/v1/bots', { full_name: 'Deploy Bot', short_name: 'deploy' }, aliceAccount);
    const { user } = await env.server.ok('GET', `/api/v1/users/${bot.user_id}`);
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'design', topic: 'deploys', content: 'Deployed v2' }, { id: bot.user_id, email: user.email, apiKey: bot.api_key });
    const { bob } = await people(t, { bob: '#feed' });
    const page = bob.page;
    await page.goto(`${env.url}/${await topicHash('design', 'deploys')}`);
    await page.getByRole('article').filter({ hasText: 'Deployed v2' }).getByRole('button', { name: 'Deploy Bot' }).click();
    const card = page.getByRole('dialog', { name: 'Deploy Bot' });
    await card.getByText('Owner', { exact: true }).waitFor();
    assert.equal(await card.locator('dt', { hasText: 'Owner' }).locator('xpath=following-sibling::dd').textContent(), 'Alice');
    assert.equal(await card.locator('dt', { hasText: 'Role' }).locator('xpath=following-sibling::dd').textContent(), 'Bot');
    assert.equal(await card.getByText(/active/i).count(), 0);
    await page.keyboard.press('Escape');
  });

  test('log out ends the session', async (t) => {
    const { bob } = await people(t, { bob: '#feed' });
    const page = bob.page;
    await page.getByRole('button', { name: 'Personal menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
  });
});
