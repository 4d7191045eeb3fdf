// The Invitations section in a real Chromium against a real server: an administrator makes a
// reusable link in the UI, a new person follows it in a second browser context, signs up on the
// server-rendered page and lands in the app; the pending list shows the link and follows
// `invites_changed` (an email invitation made through the API appears, a revoke disappears);
// a refused address shows the server's message; axe-core finds no serious or critical violation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { axeViolations, browserSkipReason, logIn, newContext, setUp, until, type Env, type Person } from './harness.ts';
import type { Account } from '../../../test/helpers/server.ts';
import { ageMessages } from '../../../test/helpers/factories.ts';

const skip = browserSkipReason();
if (skip) console.log(`# browser tests skipped: ${skip}`);

describe('invitations', { skip: skip ?? false }, () => {
  let env: Env;
  let adaAccount: Account;
  let ada: Person;

  before(async () => {
    env = await setUp();
    adaAccount = await env.server.createUser('Ada', { role: 200 });
    await env.server.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'general' }, { name: 'design' }], principals: [adaAccount.email] });
    ada = await logIn(env, adaAccount.email, adaAccount.password!);
    await ada.page.evaluate(() => (location.hash = '#organization/invitations'));
    await ada.page.getByRole('heading', { name: 'Invitations', level: 2 }).waitFor();
  });

  after(async () => {
    await env?.close();
  });

  const pending = () => ada.page.getByRole('list', { name: 'Pending invitations' });

  test('a reusable link made in the UI lets a new person sign up and land in the app', async () => {
    const page = ada.page;
    const linkForm = page.getByRole('region', { name: 'Reusable invite link' });
    await linkForm.getByRole('combobox', { name: 'Expires' }).selectOption({ label: '1 day' });
    await linkForm.getByRole('combobox', { name: 'Invite as' }).selectOption({ label: 'Member' });
    await linkForm.getByRole('checkbox', { name: 'design' }).check();
    await linkForm.getByRole('button', { name: 'Create invite link' }).click();
    const link = await linkForm.getByRole('textbox', { name: 'Invite link' }).inputValue();
    assert.match(link, /\/join\/[a-z0-9]{24}\/$/i);
    await linkForm.getByRole('button', { name: 'Copy link' }).waitFor();

    // The list refetches on invites_changed: the link is there, with its role and inviter.
    const row = pending().getByRole('listitem').filter({ hasText: 'Reusable link' });
    await row.waitFor();
    assert.match(await row.innerText(), /Member[\s\S]*invited by Ada[\s\S]*expires/);

    // The link's path on the relay's origin (the server's external host is its own port).
    const context = await newContext(env);
    try {
      const newcomer = await context.newPage();
      await newcomer.goto(env.url + new URL(link).pathname);
      await newcomer.getByRole('textbox', { name: 'Email' }).fill('cleo@example.com');
      await newcomer.getByRole('textbox', { name: 'Full name' }).fill('Cleo Newcomer');
      await newcomer.getByLabel('Password').fill('a long enough password 1');
      await newcomer.getByRole('button', { name: 'Sign up' }).click();
      await newcomer.getByRole('navigation', { name: 'Streams', exact: true }).waitFor();
      // Logged in, and in the stream the link chose.
      await newcomer.getByRole('navigation', { name: 'Streams', exact: true }).getByText('design').waitFor();
    } finally {
      await context.close();
    }
    // A reusable link stays pending after use.
    assert.equal(await pending().getByRole('listitem').filter({ hasText: 'Reusable link' }).count(), 1);
  });

  test('email invitations: refused addresses are named, the list follows, revoke removes', async () => {
    const page = ada.page;
    const form = page.getByRole('region', { name: 'Invite people by email' });
    await form.getByRole('textbox', { name: 'Email addresses' }).fill(`dora@example.com\n${adaAccount.email}`);
    await form.getByRole('button', { name: 'Send invitations' }).click();
    const refused = form.getByRole('list', { name: 'Addresses not invited' });
    await refused.getByText(adaAccount.email).waitFor();
    assert.equal(await refused.getByText('dora@example.com').count(), 0);

    await form.getByRole('textbox', { name: 'Email addresses' }).fill('dora@example.com, emil@example.com');
    await form.getByRole('button', { name: 'Send invitations' }).click();
    await pending().getByRole('listitem').filter({ hasText: 'emil@example.com' }).waitFor();
    assert.equal(await pending().getByRole('button', { name: 'Resend invitation to emil@example.com' }).count(), 1);

    await pending().getByRole('button', { name: 'Revoke invitation to emil@example.com' }).click();
    await pending().getByRole('listitem').filter({ hasText: 'emil@example.com' }).waitFor({ state: 'detached' });
    // The button went with the invitation when the list was fetched again: the focus stays in the overlay.
    await until('the focus on the title', () => page.getByRole('heading', { name: 'Invitations', level: 2 }).evaluate((h) => h === document.activeElement));
    // A reusable link of this test's own (made through the API; the list follows), whatever
    // other tests left in the list.
    const { invite_link: link } = await env.server.ok('POST', '/api/v1/invites/multiuse', { invite_expires_in_minutes: 60 }, adaAccount);
    const { invites } = await env.server.ok('GET', '/api/v1/invites', {}, adaAccount);
    const linkId = (invites as { id: number; is_multiuse: boolean; link_url: string }[]).find((i) => i.is_multiuse && i.link_url === link)!.id;
    const revokeLink = pending().getByRole('button', { name: `Revoke reusable link ${linkId}`, exact: true });
    await revokeLink.click();
    await revokeLink.waitFor({ state: 'detached' });
    // Dora's invitations (the partial first send invited her, the second again) stay pending.
    const left = await pending().getByRole('listitem').filter({ hasNotText: 'Reusable link' }).allInnerTexts();
    assert.ok(left.length > 0 && left.every((t) => t.includes('dora@example.com')), left.join(' | '));
  });

  test('a member may invite when the policy allows it (members, the default), and sees no other organization page', async () => {
    const bobAccount = await env.server.createUser('Bob');
    const bob = await logIn(env, bobAccount.email, bobAccount.password!);
    try {
      await bob.page.getByRole('button', { name: 'Personal menu' }).click();
      await bob.page.getByRole('menuitem', { name: 'Invite people' }).click();
      await bob.page.getByRole('button', { name: 'Create invite link' }).waitFor();
      // Only the roles he may give (the server refuses an invitation above one's own role).
      const roles = bob.page.getByRole('region', { name: 'Reusable invite link' }).getByRole('combobox', { name: 'Invite as' });
      assert.deepEqual(await roles.locator('option').allInnerTexts(), ['Guest', 'Member']);
      const nav = bob.page.getByRole('navigation', { name: 'Settings sections' });
      assert.equal(await nav.getByRole('link', { name: 'Invitations' }).count(), 1);
      assert.equal(await nav.getByRole('link', { name: 'Users', exact: true }).count(), 0);
      // Bob manages only his own invitations: Ada's are not in his list.
      await bob.page.getByText('No pending invitations.').waitFor();
    } finally {
      await bob.context.close();
    }
  });

  test('"Invite people" under the user list opens the section, for whoever the policy lets invite', async () => {
    const bobAccount = await env.server.createUser('Bert');
    const bob = await logIn(env, bobAccount.email, bobAccount.password!);
    try {
      const users = bob.page.getByRole('complementary', { name: 'Users' });
      await users.getByRole('link', { name: 'Invite people' }).click();
      await bob.page.getByRole('heading', { name: 'Invitations', level: 2 }).waitFor();
      await bob.page.getByRole('button', { name: 'Close' }).click();
      // Administrators only: the link goes from a member's list as the realm's event arrives.
      await env.server.ok('PATCH', '/api/v1/realm', { invite_to_realm_policy: 2 });
      await users.getByRole('link', { name: 'Invite people' }).waitFor({ state: 'detached' });
      await users.getByRole('searchbox', { name: 'Filter users' }).fill('nobody by this name');
      await users.getByText('Nobody matches.').waitFor();
    } finally {
      await env.server.ok('PATCH', '/api/v1/realm', { invite_to_realm_policy: 1 });
      await bob.context.close();
    }
  });

  test("someone new, with no conversations of their own, is led from the empty home view to their streams' history", async () => {
    await env.server.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'general' }] });
    const { id } = await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'welcome', content: 'Said before Finn joined' });
    // Said long ago: a new person starts with what their streams said lately only.
    await ageMessages(env.server, [id as number], 13 * 7 * 24 * 3600);
    const { invite_link: link } = await env.server.ok('POST', '/api/v1/invites/multiuse', { stream_ids: '[]', invite_expires_in_minutes: 30, include_realm_default_subscriptions: true });
    const context = await newContext(env);
    try {
      const page = await context.newPage();
      await page.goto(env.url + new URL(link as string).pathname);
      await page.getByRole('textbox', { name: 'Email' }).fill('finn@example.com');
      await page.getByRole('textbox', { name: 'Full name' }).fill('Finn Newcomer');
      await page.getByLabel('Password').fill('a long enough password 1');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.evaluate(() => (location.hash = '#recent'));
      await page.getByText('No conversations yet.').waitFor();
      if (process.env.PARLEY_BROWSER_SHOTS) await page.screenshot({ path: `${process.env.PARLEY_BROWSER_SHOTS}/newcomer-empty-home.png` });
      await page.getByRole('navigation', { name: 'Your streams' }).getByRole('link', { name: '#general' }).click();
      await page.getByRole('article').filter({ hasText: 'Said before Finn joined' }).waitFor();
    } finally {
      await context.close();
    }
  });

  test('someone new finds what their streams said lately in Recent conversations and the feed, unread', async () => {
    await env.server.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'lobby' }] });
    await env.server.ok('POST', '/api/v1/messages', { type: 'stream', to: 'lobby', topic: 'plans', content: 'Said lately, before Gail joined' });
    const { stream_id: lobby } = await env.server.ok('GET', '/api/v1/get_stream_id', { stream: 'lobby' });
    const { invite_link: link } = await env.server.ok('POST', '/api/v1/invites/multiuse', { stream_ids: JSON.stringify([lobby]), invite_expires_in_minutes: 30, include_realm_default_subscriptions: false });
    const context = await newContext(env);
    try {
      const page = await context.newPage();
      await page.goto(env.url + new URL(link as string).pathname);
      await page.getByRole('textbox', { name: 'Email' }).fill('gail@example.com');
      await page.getByRole('textbox', { name: 'Full name' }).fill('Gail Newcomer');
      await page.getByLabel('Password').fill('a long enough password 1');
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.getByRole('navigation', { name: 'Streams', exact: true }).waitFor();
      await page.evaluate(() => (location.hash = '#recent'));
      await page.getByRole('row').filter({ hasText: 'plans' }).getByLabel('1 unread').waitFor();
      await page.evaluate(() => (location.hash = '#feed'));
      await page.getByRole('main').getByRole('article').filter({ hasText: 'Said lately, before Gail joined' }).waitFor();
    } finally {
      await context.close();
    }
  });

  test('axe-core: no serious or critical violations on the section', async () => {
    assert.deepEqual(await axeViolations(ada.page), []);
  });
});
