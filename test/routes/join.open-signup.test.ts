import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { linkIn, startMailServer, waitForMail } from '../helpers/mail.ts';
import { alertText, hasLabelledInput, page } from '../helpers/pages.ts';

test('with emails restricted to the realm\'s domains, invitations to other domains are refused', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await s.ok('POST', '/api/v1/realm/domains', { domain: 'example.org', allow_subdomains: true });
  await s.ok('PATCH', '/api/v1/realm', { emails_restricted_to_domains: true });
  const res = await s.api('POST', '/api/v1/invites', { invitee_emails: 'a@elsewhere.com', stream_ids: [] });
  assert.equal(res.body.code, 'INVITATION_FAILED');
  assert.deepEqual(res.body.errors, [['a@elsewhere.com', 'Outside your domain.', false]]);
  await s.ok('POST', '/api/v1/invites', { invitee_emails: 'a@example.org, b@team.example.org', stream_ids: [] });
});

test('open sign-up: refused while invitations are required; then an allowed address gets a link that finishes the sign-up', async (t) => {
  const mail = await startMailServer();
  t.after(() => mail.close());
  const s = await startServer({ env: { SMTP_URL: mail.url } });
  t.after(() => s.close());
  const closed = await page(s, 'GET', '/accounts/register/');
  assert.equal(closed.status, 403);
  assert.match(closed.text, /requires an invitation/);
  assert.equal((await page(s, 'POST', '/accounts/register/', { email: 'new@example.org' })).status, 403);

  await s.ok('PATCH', '/api/v1/realm', { invite_required: false, emails_restricted_to_domains: true });
  await s.ok('POST', '/api/v1/realm/domains', { domain: 'example.org', allow_subdomains: false });
  const form = await page(s, 'GET', '/accounts/register/');
  assert.equal(form.status, 200);
  assert.ok(hasLabelledInput(form.text, 'Email'));
  const outside = await page(s, 'POST', '/accounts/register/', { email: 'new@elsewhere.com' });
  assert.equal(outside.status, 400);
  assert.match(alertText(outside.text) ?? '', /is not in one of the domains that are allowed/);
  const invalid = await page(s, 'POST', '/accounts/register/', { email: 'not-an-address' });
  assert.equal(invalid.status, 400);
  assert.equal(mail.received.length, 0);

  const sent = await page(s, 'POST', '/accounts/register/', { email: 'new@example.org' });
  assert.equal(sent.status, 200);
  assert.match(sent.text, /Check your email/);
  const m = await waitForMail(mail, 1);
  assert.deepEqual(m.to, ['new@example.org']);
  const link = linkIn(m);
  const joinForm = await page(s, 'GET', link);
  assert.match(joinForm.text, /value="new@example.org" readonly/);
  const done = await page(s, 'POST', link, { full_name: 'New Person', password: 'long-enough-pw' });
  assert.equal(done.status, 303);
  const user = await s.server.app.db.kysely.selectFrom('users').selectAll().where('email', '=', 'new@example.org').executeTakeFirstOrThrow();
  assert.equal(user.role, 400);
  const subs = await s.server.app.db.kysely.selectFrom('subscriptions').select('stream_id').where('user_id', '=', user.id).execute();
  assert.equal(subs.length, 1, 'the default stream');
  // Sign-up confirmations are not invitations anyone manages.
  assert.deepEqual((await s.ok('GET', '/api/v1/invites')).invites, []);

  // An address with an account gets the same page, and a note instead of a link.
  const again = await page(s, 'POST', '/accounts/register/', { email: 'new@example.org' });
  assert.equal(again.status, 200);
  assert.match((await waitForMail(mail, 2)).subject, /already have an account/);
});
