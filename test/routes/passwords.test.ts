import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserLogin, startServer, type TestServer } from '../helpers/server.ts';
import { linkIn, startMailServer, waitForMail } from '../helpers/mail.ts';
import { alertText, hasLabelledInput, page } from '../helpers/pages.ts';
import { setTime } from '../helpers/factories.ts';

const sessionCount = async (s: TestServer, userId: number) =>
  (await s.server.app.db.kysely.selectFrom('sessions').select('token_hash').where('user_id', '=', userId).execute()).length;

test('forgot password: the same answer for any address, a mailed single-use link, a new password that ends every session', async (t) => {
  const mail = await startMailServer();
  t.after(() => mail.close());
  const s = await startServer({ env: { SMTP_URL: mail.url } });
  t.after(() => s.close());
  const browser = await browserLogin(s);

  const form = await page(s, 'GET', '/accounts/password/reset/');
  assert.equal(form.status, 200);
  assert.ok(hasLabelledInput(form.text, 'Email'));
  assert.match(form.text, /<a href="\/">Back to log in<\/a>/);
  const unknown = await page(s, 'POST', '/accounts/password/reset/', { email: 'nobody@example.com' });
  const known = await page(s, 'POST', '/accounts/password/reset/', { email: 'owner@example.com' });
  assert.equal(unknown.status, 200);
  assert.equal(known.status, 200);
  assert.equal(unknown.text.replace('nobody@example.com', 'X'), known.text.replace('owner@example.com', 'X'));
  const m = await waitForMail(mail, 1);
  assert.deepEqual(m.to, ['owner@example.com']);
  assert.equal(m.subject, 'Reset your password for Test Org');
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(mail.received.length, 1, 'no mail for an unknown address');

  const link = linkIn(m);
  const resetForm = await page(s, 'GET', link);
  assert.equal(resetForm.status, 200);
  assert.ok(hasLabelledInput(resetForm.text, 'New password'));
  assert.ok(hasLabelledInput(resetForm.text, 'Confirm password'));
  const mismatch = await page(s, 'POST', link, { new_password: 'brand-new-pw', confirm_password: 'brand-new-px' });
  assert.equal(mismatch.status, 400);
  assert.equal(alertText(mismatch.text), "The two password fields didn't match.");
  const weak = await page(s, 'POST', link, { new_password: 'x', confirm_password: 'x' });
  assert.equal(weak.status, 400);
  assert.equal(await sessionCount(s, s.owner.id), 1);

  const done = await page(s, 'POST', link, { new_password: 'brand-new-pw', confirm_password: 'brand-new-pw' });
  assert.equal(done.status, 200);
  assert.match(done.text, /Password changed/);
  assert.equal(await sessionCount(s, s.owner.id), 0);
  assert.equal((await browser.request('GET', '/json/users/me')).status, 401);
  await browserLogin(s, { ...s.owner, password: 'brand-new-pw' });
  const reused = await page(s, 'POST', link, { new_password: 'another-pw-1', confirm_password: 'another-pw-1' });
  assert.equal(reused.status, 410);
  assert.equal((await page(s, 'GET', link)).status, 410);
});

test('a reset link expires', async (t) => {
  const mail = await startMailServer();
  t.after(() => mail.close());
  const s = await startServer({ env: { SMTP_URL: mail.url } });
  t.after(() => s.close());
  await page(s, 'POST', '/accounts/password/reset/', { email: 'owner@example.com' });
  const link = linkIn(await waitForMail(mail, 1));
  const row = await s.server.app.db.kysely.selectFrom('password_resets').selectAll().executeTakeFirstOrThrow();
  // The lifetime is a day.
  assert.equal(row.expires_at - row.created_at, 86400);
  await setTime(s, 'password_resets', 'expires_at', 1);
  const res = await page(s, 'POST', link, { new_password: 'brand-new-pw', confirm_password: 'brand-new-pw' });
  assert.equal(res.status, 410);
  assert.match(res.text, /Ask for a new one/);
});

test('changing the password in PATCH /settings needs the old one and ends the other sessions, not the current one', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const here = await browserLogin(s);
  const there = await browserLogin(s);
  const wrong = await here.request('PATCH', '/json/settings', { old_password: 'nope', new_password: 'brand-new-pw' });
  assert.deepEqual([wrong.status, wrong.body.msg], [400, 'Wrong password!']);
  const missing = await here.request('PATCH', '/json/settings', { new_password: 'brand-new-pw' });
  assert.equal(missing.status, 400);
  assert.equal(await sessionCount(s, s.owner.id), 2);

  assert.equal((await here.request('PATCH', '/json/settings', { old_password: 'owner-password', new_password: 'brand-new-pw' })).status, 200);
  assert.equal((await here.request('GET', '/json/users/me')).status, 200);
  assert.equal((await there.request('GET', '/json/users/me')).status, 401);
  assert.equal(await sessionCount(s, s.owner.id), 1);

  // Through the API (an API key, no session) every session ends.
  await s.ok('PATCH', '/api/v1/settings', { old_password: 'brand-new-pw', new_password: 'newer-pw-123' });
  assert.equal(await sessionCount(s, s.owner.id), 0);
});

test('deactivating a user deletes their sessions at once', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  await browserLogin(s, bob);
  assert.equal(await sessionCount(s, bob.id), 1);
  await s.ok('DELETE', `/api/v1/users/${bob.id}`);
  assert.equal(await sessionCount(s, bob.id), 0);
});
