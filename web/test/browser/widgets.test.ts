// Polls and todo lists in the browser, two people live; the image lightbox; the edit history's
// differences. Elements are found by role and accessible name only.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { axeViolations, browserSkipReason, logIn, setUp, shotsAfterTest, twoPeople, type Env, type Person } from './harness.ts';
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

/** A PNG of one colour with a darker band, `w` by `h` (no image library needed). */
function png(w: number, h: number, [r, g, b]: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    const dark = y > h / 3 && y < (2 * h) / 3 ? 0.6 : 1;
    for (let x = 0; x < w; x++) rows.set([r * dark, g * dark, b * dark], y * (w * 3 + 1) + 1 + x * 3);
  }
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

async function uploadImage(env: Env, as: Account, name: string, image: Buffer): Promise<string> {
  const form = new FormData();
  form.set('filename', new Blob([new Uint8Array(image)], { type: 'image/png' }), name);
  const auth = 'Basic ' + Buffer.from(`${as.email}:${as.apiKey}`).toString('base64');
  const res = await fetch(`${env.server.baseUrl}/api/v1/user_uploads`, { method: 'POST', headers: { authorization: auth }, body: form });
  return ((await res.json()) as { uri: string }).uri;
}

describe('widgets, lightbox and edit history in the web client', { skip: skip ?? false }, () => {
  let env: Env;
  let aliceAccount: Account;
  let bobAccount: Account;
  let alice: Person;
  let bob: Person;

  before(async () => {
    env = await setUp();
    ({
      accounts: [aliceAccount, bobAccount],
      people: [alice, bob],
    } = await twoPeople(env, { names: ['Alice', 'Bob'], streams: ['general'], withOwner: true }));
  });

  after(async () => {
    await env?.close();
  });

  afterEach((t) => shotsAfterTest(t.name, { alice: alice?.page, bob: bob?.page }));

  /** axe on the page with compose closed (its suggestion attributes are another area's). */
  const axe = async (page: Page) => {
    const close = page.getByRole('button', { name: 'Close compose' });
    if (await close.count()) await close.click();
    return axeViolations(page);
  };

  const openTopic = async (p: Person, topic: string) => {
    const nav = p.page.getByRole('navigation', { name: 'Streams', exact: true });
    await nav.getByRole('link', { name: /^general/ }).click();
    await nav.getByRole('link', { name: new RegExp(`^${topic}`) }).click();
  };

  test('Alice creates a poll; Bob votes and adds an option; Alice sees both live and edits the question', async () => {
    await alice.page.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^general/ }).click();
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

  test('an image preview opens the lightbox: sender and links, arrow keys between the conversation\'s images, Escape closes and focus returns', async () => {
    const red = await uploadImage(env, aliceAccount, 'red.png', png(480, 320, [214, 69, 65]));
    const blue = await uploadImage(env, bobAccount, 'blue.png', png(320, 480, [52, 101, 164]));
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'photos', content: `[red.png](${red})` }, aliceAccount);
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'photos', content: `[blue.png](${blue})` }, bobAccount);
    await openTopic(alice, 'photos');
    const page = alice.page;
    const preview = page.getByRole('article', { name: /Alice/ }).getByRole('link', { name: 'View image red.png' });
    await preview.click();
    const viewer = page.getByRole('dialog', { name: 'Image viewer' });
    await viewer.getByRole('img', { name: 'red.png' }).waitFor();
    await viewer.getByText('Alice', { exact: true }).waitFor();
    await viewer.getByText('Image 1 of 2').waitFor();
    assert.equal(await viewer.getByRole('link', { name: 'Open original' }).getAttribute('href'), red);
    assert.equal(await viewer.getByRole('link', { name: 'Download' }).getAttribute('download'), 'red.png');
    assert.deepEqual(await axeViolations(page), []);
    await shots(page, 'lightbox-desktop');

    await page.keyboard.press('ArrowRight');
    await viewer.getByRole('img', { name: 'blue.png' }).waitFor();
    await viewer.getByText('Bob', { exact: true }).waitFor();
    await page.keyboard.press('ArrowRight'); // the last image: stays
    await viewer.getByText('Image 2 of 2').waitFor();
    await page.keyboard.press('ArrowLeft');
    await viewer.getByRole('img', { name: 'red.png' }).waitFor();
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });
    // Escape closed the viewer only, and focus is back on the preview it came from.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('href')), red);
    assert.equal(await page.getByRole('heading', { name: /photos/ }).count(), 1);

    // The keyboard opens it too; the close button closes it.
    await page.keyboard.press('Enter');
    await viewer.getByRole('button', { name: 'Next image' }).click();
    await viewer.getByRole('img', { name: 'blue.png' }).waitFor();
    await viewer.getByRole('button', { name: 'Close' }).click();
    await viewer.waitFor({ state: 'detached' });
    // `v` shows the selected message's image.
    await page.getByRole('article', { name: /Bob/ }).click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('v');
    await viewer.getByRole('img', { name: 'blue.png' }).waitFor();
    await page.keyboard.press('Escape');
    await viewer.waitFor({ state: 'detached' });

    const phone = await logIn(env, bobAccount.email, bobAccount.password!, { width: 390, height: 844 });
    await phone.page.goto(`${env.url}/#narrow/channel/1-general/topic/photos`);
    await phone.page.getByRole('link', { name: 'View image blue.png' }).click();
    await phone.page.getByRole('dialog', { name: 'Image viewer' }).getByRole('img', { name: 'blue.png' }).waitFor();
    await shots(phone.page, 'lightbox-phone');
    await phone.page.getByRole('button', { name: 'Previous image' }).click();
    await phone.page.getByRole('dialog', { name: 'Image viewer' }).getByRole('img', { name: 'red.png' }).waitFor();
    // A swipe to the left shows the next image.
    // (No named functions inside evaluate: tsx would wrap them in a helper the page lacks.)
    await phone.page.getByRole('img', { name: 'red.png' }).evaluate((img) => {
      for (const [type, x] of [['touchstart', 300], ['touchend', 120]] as const) {
        const t = [new Touch({ identifier: 1, target: img, clientX: x, clientY: 400 })];
        img.dispatchEvent(new TouchEvent(type, { touches: type === 'touchstart' ? t : [], changedTouches: t, bubbles: true }));
      }
    });
    await phone.page.getByRole('dialog', { name: 'Image viewer' }).getByRole('img', { name: 'blue.png' }).waitFor();
    await phone.context.close();
  });

  test('the edit history shows what each edit removed and added, inline or side by side, and topic moves', async () => {
    const { id } = await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'plans', content: 'Meet at noon in room 4.' }, aliceAccount);
    await env.server.ok('PATCH', `/api/v1/messages/${id}`, { content: 'Meet at one in room 4, bring slides.' }, aliceAccount);
    await env.server.ok('PATCH', `/api/v1/messages/${id}`, { topic: 'friday plans' }, aliceAccount);
    await openTopic(bob, 'friday plans');
    const page = bob.page;
    const msg = page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'bring slides' });
    await msg.hover();
    await msg.getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menuitem', { name: 'View edit history' }).click();
    const dialog = page.getByRole('dialog', { name: 'Message edit history' });
    await dialog.getByText('Meet at noon in room 4.').waitFor();
    assert.deepEqual(await dialog.getByRole('deletion').allTextContents(), ['[removed: noon]']);
    assert.deepEqual(await dialog.getByRole('insertion').allTextContents(), ['[added: one]', '[added: , bring slides]']);
    await dialog.getByText('Topic: plans → friday plans').waitFor();
    assert.deepEqual(await axeViolations(page), []);
    await shots(page, 'history-inline-desktop');

    await dialog.getByRole('button', { name: 'Side by side' }).click();
    await dialog.getByRole('button', { name: 'Side by side', pressed: true }).waitFor();
    assert.deepEqual(await dialog.getByRole('region', { name: 'Before' }).getByRole('deletion').allTextContents(), ['[removed: noon]']);
    assert.equal(await dialog.getByRole('region', { name: 'Before' }).getByRole('insertion').count(), 0);
    assert.equal(await dialog.getByRole('region', { name: 'After' }).getByRole('insertion').count(), 2);
    assert.deepEqual(await axeViolations(page), []);
    await shots(page, 'history-side-desktop');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    const phone = await logIn(env, bobAccount.email, bobAccount.password!, { width: 390, height: 844 });
    await phone.page.goto(`${env.url}/#narrow/channel/1-general/topic/friday.20plans`);
    const phoneMsg = phone.page.getByRole('article', { name: /Alice/ }).filter({ hasText: 'bring slides' });
    await phoneMsg.click();
    await phoneMsg.getByRole('button', { name: 'Message actions' }).click();
    await phone.page.getByRole('menuitem', { name: 'View edit history' }).click();
    await phone.page.getByRole('dialog', { name: 'Message edit history' }).getByRole('button', { name: 'Side by side' }).click();
    await shots(phone.page, 'history-side-phone');
    await phone.context.close();
  });

  test("a poll under another message of its sender: its time and actions cover none of it, on a phone and a desk", async () => {
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'corners', content: 'A question for everyone' }, aliceAccount);
    const { id } = await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'corners', content: '/poll Which corner?\nLeft\nRight' }, aliceAccount);
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'corners', content: 'Thanks' }, aliceAccount);
    const { stream_id } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'general' });
    for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
      const p = await logIn(env, bobAccount.email, bobAccount.password!, viewport, `#narrow/channel/${stream_id}-general/topic/corners`);
      const msg = p.page.locator(`article[data-id="${id}"]`);
      const poll = msg.getByRole('region', { name: 'Which corner?' });
      await poll.waitFor();
      // What a tap at the poll's corners reaches (a transparent button there takes the tap).
      const corners = () =>
        poll.evaluate((el) => {
          const r = el.getBoundingClientRect();
          return [[r.right - 3, r.top + 3], [r.right - 30, r.top + 12], [r.right - 3, r.bottom - 3]].every(([x, y]) => el.contains(document.elementFromPoint(x!, y!)));
        });
      assert.equal(await corners(), true, `unselected, ${viewport.width}px`);
      await poll.getByRole('heading', { name: 'Which corner?' }).click();
      const shown = [msg.getByRole('link', { name: /\d:\d\d/ }), msg.getByRole('button', { name: 'Add reaction' }), msg.getByRole('button', { name: 'Message actions' })];
      const box = (await poll.boundingBox())!;
      for (const el of shown) {
        await el.waitFor({ state: 'visible' });
        const b = (await el.boundingBox())!;
        const overlaps = b.x < box.x + box.width && box.x < b.x + b.width && b.y < box.y + box.height && box.y < b.y + b.height;
        assert.equal(overlaps, false, `${viewport.width}px: ${JSON.stringify(b)} over the poll at ${JSON.stringify(box)}`);
      }
      assert.equal(await corners(), true, `selected, ${viewport.width}px`);
      await shots(p.page, `poll-grouped-${viewport.width}`);
      await p.context.close();
    }
  });

  test('widgets on a phone', async () => {
    const phone = await logIn(env, bobAccount.email, bobAccount.password!, { width: 390, height: 844 });
    await phone.page.goto(`${env.url}/#narrow/channel/1-general/topic/lunch`);
    await phone.page.getByRole('region', { name: /Where to eat/ }).waitFor();
    await shots(phone.page, 'poll-phone');
    // Within the screen, its buttons whole (a margin kept from an older layout pushed it 60 px past the right edge).
    const poll = phone.page.getByRole('region', { name: /Where to eat/ });
    for (const box of [await poll.boundingBox(), await poll.getByRole('button', { name: 'Add option' }).boundingBox()]) {
      assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `at ${JSON.stringify(box)}`);
    }
    await phone.page.goto(`${env.url}/#narrow/channel/1-general/topic/chores`);
    await phone.page.getByRole('region', { name: 'Before Friday' }).waitFor();
    await shots(phone.page, 'todo-phone');
    await phone.context.close();
    await openTopic(alice, 'lunch');
    await shots(alice.page, 'poll-desktop');
  });
});
