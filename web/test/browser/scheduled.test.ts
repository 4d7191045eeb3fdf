// Scheduled messages in a real Chromium against a real server: compose's "Send later" hands a
// message to the server for a chosen time, the sidebar and the Scheduled messages view list it
// live, Edit takes it back into compose (off the schedule), Delete cancels it, and one that comes
// due is sent and leaves the list.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { axeViolations, browserSkipReason, logIn, setUp, shotsAfterTest, twoAccounts, type Env, type Person } from './harness.ts';
import type { Account } from '../../../test/helpers/server.ts';

const skip = browserSkipReason();
if (skip) console.log(`# browser tests skipped: ${skip}`);

describe('scheduled messages', { skip: skip ?? false }, () => {
  let env: Env;
  let aliceAccount: Account;
  let alice: Person;
  let generalId: number;

  before(async () => {
    env = await setUp();
    [aliceAccount] = await twoAccounts(env, { names: ['Alice', 'Bob'], streams: ['general'] });
    generalId = (await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'general' })).stream_id as number;
    alice = await logIn(env, aliceAccount.email, aliceAccount.password!, undefined, `#narrow/channel/${generalId}-general/topic/plans`);
  });

  afterEach(async (t) => {
    await shotsAfterTest(t.name, { alice: alice?.page });
  });

  after(async () => {
    await env?.close();
  });

  const sidebarLink = (p: Page) => p.getByRole('navigation', { name: 'Streams', exact: true }).getByRole('link', { name: /^Scheduled messages/ });
  const view = (p: Page) => p.getByRole('main', { name: 'Scheduled messages' });

  /** Writes `text` in #general › plans and schedules it for an hour from now, through the UI. */
  async function scheduleInUi(text: string): Promise<void> {
    const page = alice.page;
    await page.evaluate((h) => (location.hash = h), `#narrow/channel/${generalId}-general/topic/plans`);
    if ((await page.getByRole('textbox', { name: 'Message' }).count()) === 0) await page.getByRole('button', { name: 'Compose', exact: true }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill(text);
    await page.getByRole('button', { name: 'Send later' }).click();
    const later = page.getByRole('group', { name: 'Send later' });
    // An hour from now, as the input takes it (local time, minutes: the browser runs on this machine's clock and zone).
    const d = new Date(Date.now() + 3600_000);
    const two = (n: number) => String(n).padStart(2, '0');
    const value = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
    await later.getByLabel('Send at').fill(value);
    await later.getByRole('button', { name: 'Schedule' }).click();
    // The time's row closes once the server has it (the toast may still be the last test's).
    await later.waitFor({ state: 'detached' });
    await page.getByText(/^Scheduled for /).waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Message' }).inputValue(), '', 'compose empties as after a send');
    // The focus goes back to the message box, as after a send (it was left on nothing).
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Message');
  }

  test('"Send later" schedules the message; the sidebar and the view list it; Edit takes it back into compose', async () => {
    const page = alice.page;
    await scheduleInUi('Remember the retro at ten');
    await sidebarLink(page).getByText('1').waitFor();
    const mine = (await env.server.ok('GET', '/api/v1/scheduled_messages', undefined, aliceAccount)).scheduled_messages as { content: string; to: number; topic: string; scheduled_delivery_timestamp: number }[];
    assert.deepEqual(
      mine.map((m) => [m.content, m.to, m.topic]),
      [['Remember the retro at ten', generalId, 'plans']],
    );
    assert.ok(Math.abs(mine[0]!.scheduled_delivery_timestamp - (Date.now() / 1000 + 3600)) < 120);

    await sidebarLink(page).click();
    const item = view(page).getByRole('article', { name: 'Scheduled message to #general › plans' });
    await item.getByText('Remember the retro at ten').waitFor();
    assert.match(await item.innerText(), /Sends /);
    await item.getByRole('button', { name: 'Edit' }).click();
    assert.equal(await page.getByRole('textbox', { name: 'Message' }).inputValue(), 'Remember the retro at ten');
    await view(page).getByText('No scheduled messages.', { exact: false }).waitFor();
    await sidebarLink(page).waitFor({ state: 'detached' });
    assert.deepEqual((await env.server.ok('GET', '/api/v1/scheduled_messages', undefined, aliceAccount)).scheduled_messages, []);
    await page.getByRole('button', { name: 'Close compose' }).click();
  });

  test('the "Scheduled for" notice does not cover the Scheduled messages list it points to', async () => {
    const page = alice.page;
    await scheduleInUi('Water the plants');
    const notice = page.getByRole('status').getByText(/^Scheduled for /);
    await sidebarLink(page).click();
    const item = view(page).getByRole('article', { name: 'Scheduled message to #general › plans' }).filter({ hasText: 'Water the plants' });
    await item.waitFor();
    // Within the notice's five seconds: the view's heading and the top of its list are what shows there.
    for (const shown of [view(page).getByRole('heading', { name: 'Scheduled messages' }), item]) {
      const uncovered = await shown.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return [r.left + 4, (r.left + r.right) / 2, r.right - 4].map((x) => el.contains(document.elementFromPoint(x, r.top + 6)));
      });
      assert.deepEqual(uncovered, [true, true, true], `${await shown.evaluate((el) => el.tagName)} covered`);
    }
    assert.equal(await notice.count(), 0);
    const [m] = (await env.server.ok('GET', '/api/v1/scheduled_messages', undefined, aliceAccount)).scheduled_messages as { scheduled_message_id: number }[];
    await env.server.ok('DELETE', `/api/v1/scheduled_messages/${m!.scheduled_message_id}`, undefined, aliceAccount);
    await item.waitFor({ state: 'detached' });
  });

  test('"Send later" offers times at a tap: in an hour, tomorrow and Monday at nine', async () => {
    const page = alice.page;
    await page.evaluate((h) => (location.hash = h), `#narrow/channel/${generalId}-general/topic/plans`);
    if ((await page.getByRole('textbox', { name: 'Message' }).count()) === 0) await page.getByRole('button', { name: 'Compose', exact: true }).click();
    await page.getByRole('button', { name: 'Send later' }).click();
    const later = page.getByRole('group', { name: 'Send later' });
    const chosen = async () => new Date(await later.getByLabel('Send at').inputValue());
    // Proposed at first: tomorrow at nine.
    assert.equal(await later.getByRole('button', { name: 'Tomorrow at 9:00' }).getAttribute('aria-pressed'), 'true');
    await later.getByRole('button', { name: 'Monday at 9:00' }).click();
    const monday = await chosen();
    assert.deepEqual([monday.getDay(), monday.getHours(), monday.getMinutes()], [1, 9, 0]);
    assert.ok(monday.getTime() > Date.now() && monday.getTime() <= Date.now() + 7 * 86_400_000);
    await later.getByRole('button', { name: 'In an hour' }).click();
    assert.ok(Math.abs((await chosen()).getTime() - (Date.now() + 3600_000)) < 120_000);
    assert.equal(await later.getByRole('button', { name: 'In an hour' }).getAttribute('aria-pressed'), 'true');
    await later.getByRole('button', { name: 'Cancel' }).click();
    await later.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Close compose' }).click();
  });

  test('Delete cancels a scheduled message', async () => {
    const page = alice.page;
    await scheduleInUi('Never mind this one');
    await sidebarLink(page).click();
    await view(page).getByRole('article').getByRole('button', { name: 'Delete' }).click();
    await view(page).getByRole('article').waitFor({ state: 'detached' });
    assert.deepEqual((await env.server.ok('GET', '/api/v1/scheduled_messages', undefined, aliceAccount)).scheduled_messages, []);
  });

  test('a scheduled message that comes due is sent and leaves the list', async () => {
    const page = alice.page;
    await scheduleInUi('Sent by the server');
    const [m] = (await env.server.ok('GET', '/api/v1/scheduled_messages', undefined, aliceAccount)).scheduled_messages as { scheduled_message_id: number }[];
    await sidebarLink(page).click();
    await view(page).getByRole('article').waitFor();
    // Brought forward to two seconds from now (the server sends what is due about once a second).
    await env.server.ok('PATCH', `/api/v1/scheduled_messages/${m!.scheduled_message_id}`, { scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 2 }, aliceAccount);
    await view(page).getByRole('article').waitFor({ state: 'detached', timeout: 15_000 });
    await page.evaluate((h) => (location.hash = h), `#narrow/channel/${generalId}-general/topic/plans`);
    await page.getByRole('article').filter({ hasText: 'Sent by the server' }).waitFor();
  });

  test('axe-core: no serious or critical violations on the view with a message in it', async () => {
    await scheduleInUi('For the audit');
    await sidebarLink(alice.page).click();
    await view(alice.page).getByRole('article').waitFor();
    assert.deepEqual(await axeViolations(alice.page), []);
  });
});
