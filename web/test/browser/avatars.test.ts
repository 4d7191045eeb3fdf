// Avatars and the organization icon in a real Chromium against a real server: Bob uploads an
// avatar in his profile settings (with a preview first) and Ada's open page shows it in the
// message list and the user list without a reload; a file that is no image shows the server's
// message and changes nothing; removing it brings the letter back everywhere. Ada uploads the
// organization icon and Bob's header shows it live. Found by role and name; axe-core finds no
// serious or critical violation. With PARLEY_BROWSER_SHOTS=<dir>, screenshots of the pages at
// desktop and phone sizes, light and dark, are saved there.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import type { Locator, Page } from 'playwright-core';
import { axeViolations, browserSkipReason, openSettings, setUp, twoPeople, until, type Env, type Person } from './harness.ts';

const skip = browserSkipReason();
if (skip) console.log(`# browser tests skipped: ${skip}`);

const SHOTS = process.env.PARLEY_BROWSER_SHOTS;

/** An image's source once it has loaded (so the CSP allowed it and the server served it), or null. */
async function loadedImage(within: Locator): Promise<string | null> {
  return within.evaluate((el) => {
    const img = el.querySelector('img');
    return img && img.complete && img.naturalWidth > 0 ? img.getAttribute('src') : null;
  });
}

/** Saves the page at desktop and phone sizes, light and dark, as <dir>/avatars-<name>-<size>-<theme>.png. */
async function shots(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  const sizes = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
  for (const [size, viewport] of Object.entries(sizes)) {
    await page.setViewportSize(viewport);
    for (const theme of ['light', 'dark']) {
      await page.evaluate((t) => {
        localStorage.setItem('parley-theme', t);
        document.documentElement.dataset.theme = t;
      }, theme);
      await page.screenshot({ path: `${SHOTS}/avatars-${name}-${size}-${theme}.png` });
    }
  }
  await page.setViewportSize(sizes.desktop);
  await page.evaluate(() => {
    localStorage.setItem('parley-theme', 'light');
    document.documentElement.dataset.theme = 'light';
  });
}

describe('avatars and the organization icon', { skip: skip ?? false }, () => {
  let env: Env;
  let ada: Person;
  let bob: Person;
  let photo: Buffer;

  before(async () => {
    env = await setUp();
    ({
      people: [ada, bob],
    } = await twoPeople(env, {
      names: ['Ada', 'Bob'],
      roles: [200, undefined],
      streams: ['general'],
      beforeLogIn: async (adaAccount, bobAccount) => {
        await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'hello', content: 'Hello from Bob' }, bobAccount);
        // Ada's user list shows avatars ("With avatar and status").
        await env.server.ok('PATCH', '/api/v1/settings', { user_list_style: 3 }, adaAccount);
      },
    }));
    // A wide picture with a circle in it: the stored avatar is its centre, cropped square.
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><rect width="600" height="400" fill="#2a7ab0"/><circle cx="300" cy="200" r="150" fill="#f4c542"/></svg>';
    photo = await sharp(Buffer.from(svg)).jpeg().toBuffer();
  });

  after(async () => {
    await env?.close();
  });

  const open = openSettings;

  test("Bob uploads an avatar and Ada's open page shows it without a reload; a bad file changes nothing", async () => {
    const message = ada.page.getByRole('article', { name: /Bob/ }).first();
    await message.waitFor();
    const listed = ada.page.getByRole('complementary', { name: 'Users' }).getByRole('button', { name: /^Bob/ });
    assert.equal(await loadedImage(message), null, 'a letter before any upload');

    await open(bob, '#settings/profile');
    const picker = bob.page.getByLabel('Choose a new avatar');
    // Not an image: the server's message, and nothing changes.
    await picker.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('these are notes, not a picture') });
    await bob.page.getByRole('button', { name: 'Upload avatar' }).click();
    await bob.page.getByRole('alert').filter({ hasText: 'Invalid image format' }).waitFor();
    assert.equal(await bob.page.getByRole('button', { name: 'Remove avatar' }).count(), 0);
    await bob.page.getByRole('button', { name: 'Cancel' }).click();

    await bob.page.getByLabel('Choose a new avatar').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: photo });
    await bob.page.getByRole('img', { name: 'Preview of the new avatar' }).waitFor();
    assert.deepEqual(await axeViolations(bob.page), []);
    await shots(bob.page, 'profile-preview');
    await bob.page.getByRole('button', { name: 'Upload avatar' }).click();
    await bob.page.getByRole('button', { name: 'Remove avatar' }).waitFor();

    // Ada's page follows by event: the message list and the user list show the uploaded image.
    await until("Bob's avatar in Ada's message list", async () => ((await loadedImage(message)) ?? '').includes('/user_avatars/'));
    await until("Bob's avatar in Ada's user list", async () => ((await loadedImage(listed)) ?? '').includes('/user_avatars/'));
    const src = (await loadedImage(message))!;
    const served = await ada.page.evaluate(async (u) => {
      const r = await fetch(u);
      return { type: r.headers.get('content-type'), size: (await r.arrayBuffer()).byteLength };
    }, src);
    assert.equal(served.type, 'image/png');
    assert.ok(served.size > 0);
    await shots(ada.page, 'main');
    await shots(bob.page, 'profile');

    // Removing it brings the letter back on Ada's page.
    await bob.page.getByRole('button', { name: 'Remove avatar' }).click();
    await until("the letter back in Ada's message list", async () => (await loadedImage(message)) === null);
    await bob.page.getByRole('button', { name: 'Remove avatar' }).waitFor({ state: 'detached' });
  });

  test("Ada uploads the organization icon and Bob's header shows it live", async () => {
    await bob.page.keyboard.press('Escape');
    await bob.page.getByRole('dialog', { name: /settings/ }).waitFor({ state: 'detached' });
    const brand = bob.page.getByRole('banner').getByRole('link').first();
    assert.equal(await loadedImage(brand), null);
    await open(ada, '#organization/profile');
    await ada.page.getByLabel('Choose a new icon').setInputFiles({ name: 'icon.jpg', mimeType: 'image/jpeg', buffer: photo });
    await ada.page.getByRole('img', { name: 'Preview of the new icon' }).waitFor();
    await ada.page.getByRole('button', { name: 'Upload icon' }).click();
    await ada.page.getByRole('button', { name: 'Remove icon' }).waitFor();
    assert.deepEqual(await axeViolations(ada.page), []);
    await until("the icon in Bob's header", async () => ((await loadedImage(brand)) ?? '').includes('/realm/icon.png'));
    await shots(ada.page, 'organization');
    await shots(bob.page, 'header');
    await ada.page.getByRole('button', { name: 'Remove icon' }).click();
    await until("the letter back in Bob's header", async () => (await loadedImage(brand)) === null);
  });
});
