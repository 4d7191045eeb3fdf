import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { linkIn, startMailServer } from '../helpers/mail.ts';
import { page } from '../helpers/pages.ts';

test('with SMTP_URL an invitation is mailed through a real SMTP server (with login); the mailed link signs the person up', async (t) => {
  const mail = await startMailServer();
  t.after(() => mail.close());
  const s = await startServer({ env: { SMTP_URL: mail.url, EMAIL_FROM: 'Parley <chat@example.com>' } });
  t.after(() => s.close());
  await s.ok('POST', '/api/v1/invites', { invitee_emails: 'new@example.com', stream_ids: [] });
  assert.equal(mail.received.length, 1);
  const m = mail.received[0]!;
  assert.equal(m.from, 'chat@example.com');
  assert.deepEqual(m.to, ['new@example.com']);
  assert.equal(m.subject, 'Olivia Owner invited you to join Test Org');
  const link = linkIn(m);
  // With mail configured the link goes to the invitee only.
  const { invites } = await s.ok('GET', '/api/v1/invites');
  assert.equal('link_url' in invites[0], false);

  await s.ok('POST', `/api/v1/invites/${invites[0].id}/resend`);
  assert.equal(mail.received.length, 2);
  assert.equal(linkIn(mail.received[1]!), link);

  const res = await page(s, 'POST', link, { full_name: 'New Person', password: 'long-enough-pw' });
  assert.equal(res.status, 303);
  const user = await s.server.app.db.kysely.selectFrom('users').select('full_name').where('email', '=', 'new@example.com').executeTakeFirst();
  assert.equal(user?.full_name, 'New Person');
});

test('an SMTP server that cannot be reached: the invitation is kept and the request does not fail (the error is logged)', async (t) => {
  const mail = await startMailServer();
  const url = mail.url;
  await mail.close();
  const s = await startServer({ env: { SMTP_URL: url } });
  t.after(() => s.close());
  await s.ok('POST', '/api/v1/invites', { invitee_emails: 'new@example.com', stream_ids: [] });
  assert.equal((await s.ok('GET', '/api/v1/invites')).invites.length, 1);
});

test('SMTP_URL must be an smtp:// or smtps:// URL', async () => {
  const { loadConfig, ConfigError } = await import('../../src/config.ts');
  assert.throws(() => loadConfig({}, { SMTP_URL: 'http://mail.example.com' }), ConfigError);
  assert.equal(loadConfig({}, { SMTP_URL: 'smtps://u:p@mail.example.com:465' }).smtpUrl, 'smtps://u:p@mail.example.com:465');
  assert.equal(loadConfig({ 'external-host': 'chat.example.com:8443' }, {}).emailFrom, 'Parley <noreply@chat.example.com>');
});
