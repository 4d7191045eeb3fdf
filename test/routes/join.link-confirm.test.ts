// A reusable invite link on a server that can send mail (SMTP_URL, a real SMTP server on a
// loopback port): the page asks only the address and mails a confirmation link; that link leads to
// name and password, and the account gets the reusable link's role and streams. Without SMTP the
// link's form makes the account at once (nobody could receive a confirmation).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { alertText, hasLabelledInput, page } from '../helpers/pages.ts';
import { streamNamesOf, userByEmail } from '../helpers/accounts.ts';
import { linkIn, startMailServer, waitForMail } from '../helpers/mail.ts';

async function withMail(t: import('node:test').TestContext) {
  const mail = await startMailServer();
  t.after(() => mail.close());
  const s = await startServer({ env: { SMTP_URL: mail.url } });
  t.after(() => s.close());
  return { mail, s };
}

test('with SMTP a reusable link asks only the address, mails a link, and that link makes the account with the link\'s role and streams', async (t) => {
  const { mail, s } = await withMail(t);
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'design' }] });
  const { stream_id: design } = await s.ok('GET', '/api/v1/get_stream_id', { stream: 'design' });
  const { invite_link } = await s.ok('POST', '/api/v1/invites/multiuse', { invite_as: 600, stream_ids: [design], include_realm_default_subscriptions: false });

  const first = await page(s, 'GET', invite_link);
  assert.equal(first.status, 200);
  assert.ok(hasLabelledInput(first.text, 'Email'));
  assert.equal(hasLabelledInput(first.text, 'Password'), false);
  assert.equal(hasLabelledInput(first.text, 'Full name'), false);

  // A name and password sent along (a crafted post) make no account: only the mail goes out.
  const sent = await page(s, 'POST', invite_link, { email: 'cleo@example.com', full_name: 'Cleo', password: 'long-enough-pw' });
  assert.equal(sent.status, 200);
  assert.match(sent.text, /Check your email/);
  assert.equal(await userByEmail(s, 'cleo@example.com'), undefined);
  const m = await waitForMail(mail, 1);
  assert.deepEqual(m.to, ['cleo@example.com']);
  assert.match(m.subject, /Confirm your email/);
  assert.match(m.text, /expires in 24 hours/);
  const confirm = linkIn(m);
  assert.notEqual(new URL(confirm).pathname, new URL(invite_link).pathname);
  // The confirmation is nobody's pending invitation: the list shows the reusable link only.
  assert.deepEqual((await s.ok('GET', '/api/v1/invites')).invites.map((i: { is_multiuse: boolean }) => i.is_multiuse), [true]);

  const form = await page(s, 'GET', confirm);
  assert.match(form.text, /value="cleo@example.com" readonly/);
  assert.ok(hasLabelledInput(form.text, 'Full name'));
  assert.ok(hasLabelledInput(form.text, 'Password'));
  const done = await page(s, 'POST', confirm, { full_name: 'Cleo Newcomer', password: 'long-enough-pw' });
  assert.equal(done.status, 303);
  assert.equal(done.headers.location, '/');
  assert.match(done.cookie, /parley_session=/);
  const cleo = (await userByEmail(s, 'cleo@example.com'))!;
  assert.equal(cleo.role, 600);
  assert.deepEqual(await streamNamesOf(s, cleo.id), ['design']);
  // The confirmation is single use; the reusable link goes on serving others.
  const reused = await page(s, 'GET', confirm);
  assert.equal(reused.status, 410);
  assert.match((await page(s, 'POST', invite_link, { email: 'dora@example.com' })).text, /Check your email/);
  assert.deepEqual((await waitForMail(mail, 2)).to, ['dora@example.com']);
});

test('with SMTP the address step refuses bad input with a clear message, and mails an existing account a note instead of a link', async (t) => {
  const { mail, s } = await withMail(t);
  const { invite_link } = await s.ok('POST', '/api/v1/invites/multiuse', { invite_as: 400 });
  const empty = await page(s, 'POST', invite_link, {});
  assert.equal(empty.status, 400);
  assert.equal(alertText(empty.text), 'Please enter your email address.');
  const invalid = await page(s, 'POST', invite_link, { email: 'not-an-address' });
  assert.equal(invalid.status, 400);
  assert.ok(alertText(invalid.text));
  assert.ok(hasLabelledInput(invalid.text, 'Email'));

  await s.ok('PATCH', '/api/v1/realm', { emails_restricted_to_domains: true });
  await s.ok('POST', '/api/v1/realm/domains', { domain: 'example.org', allow_subdomains: false });
  const outside = await page(s, 'POST', invite_link, { email: 'someone@elsewhere.com' });
  assert.equal(outside.status, 400);
  assert.match(alertText(outside.text) ?? '', /not in one of the domains/);
  assert.equal(mail.received.length, 0);
  await s.ok('PATCH', '/api/v1/realm', { emails_restricted_to_domains: false });

  // The page answers the same for an address with an account (no way to probe who is here).
  const taken = await page(s, 'POST', invite_link, { email: 'owner@example.com' });
  assert.equal(taken.status, 200);
  assert.match(taken.text, /Check your email/);
  const note = await waitForMail(mail, 1);
  assert.match(note.subject, /already have an account/);
  assert.doesNotMatch(note.text, /\/join\//);

  // A revoked link mails nothing.
  const { invites } = await s.ok('GET', '/api/v1/invites');
  await s.ok('DELETE', `/api/v1/invites/multiuse/${invites[0].id}`);
  const revoked = await page(s, 'POST', invite_link, { email: 'late@example.com' });
  assert.equal(revoked.status, 410);
  assert.equal(mail.received.length, 1);
});

test('the confirmation never outlives the reusable link', async (t) => {
  const { mail, s } = await withMail(t);
  const { invite_link } = await s.ok('POST', '/api/v1/invites/multiuse', { invite_as: 400, invite_expires_in_minutes: 30 });
  await page(s, 'POST', invite_link, { email: 'soon@example.com' });
  const m = await waitForMail(mail, 1);
  assert.match(m.text, /expires in (29|30) minutes/);
  const rows = await s.server.app.db.kysely.selectFrom('invitations').select(['kind', 'expires_at']).orderBy('id').execute();
  assert.deepEqual(rows.map((r) => r.kind), ['multiuse', 'signup']);
  assert.ok(Number(rows[1]!.expires_at) <= Number(rows[0]!.expires_at));
});

test('without SMTP a reusable link still signs up at once (nobody could receive a confirmation)', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { invite_link } = await s.ok('POST', '/api/v1/invites/multiuse', { invite_as: 400 });
  const form = await page(s, 'GET', invite_link);
  for (const label of ['Email', 'Full name', 'Password']) assert.ok(hasLabelledInput(form.text, label), label);
  const done = await page(s, 'POST', invite_link, { email: 'eve@example.com', full_name: 'Eve', password: 'long-enough-pw' });
  assert.equal(done.status, 303);
  assert.equal((await userByEmail(s, 'eve@example.com'))!.role, 400);
});
