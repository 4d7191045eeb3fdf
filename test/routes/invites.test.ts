import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { kinds, verifyAction } from '../helpers/verify.ts';

const ADMIN = 200;
const GUEST = 600;

test('an email invitation is listed with its link (no SMTP), and its invites_changed reaches a verify-action client', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const events = await verifyAction(s, s.owner, () => s.ok('POST', '/api/v1/invites', { invitee_emails: 'new@example.com', stream_ids: [] }));
  assert.deepEqual(kinds(events), ['invites_changed']);
  const { invites } = await s.ok('GET', '/api/v1/invites');
  assert.equal(invites.length, 1);
  const inv = invites[0];
  assert.equal(inv.email, 'new@example.com');
  assert.equal(inv.is_multiuse, false);
  assert.equal(inv.invited_as, 400);
  assert.equal(inv.invited_by_user_id, s.owner.id);
  assert.equal(inv.notify_referrer_on_join, true);
  // The reference's default lifetime: 14400 minutes.
  assert.equal(inv.expiry_date - inv.invited, 14400 * 60);
  assert.match(inv.link_url, /^http:\/\/localhost\/join\/[a-z2-7]{24}\/$/);
});

test('several addresses (commas and newlines); null expiry never expires; a stream the caller sees', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { subscriptions } = await s.ok('GET', '/api/v1/users/me/subscriptions');
  await s.ok('POST', '/api/v1/invites', {
    invitee_emails: 'a@example.com, b@example.com\nc@example.com',
    stream_ids: [subscriptions[0].stream_id],
    invite_expires_in_minutes: null,
    invite_as: GUEST,
  });
  const { invites } = await s.ok('GET', '/api/v1/invites');
  assert.deepEqual(
    invites.map((i: any) => [i.email, i.expiry_date, i.invited_as]),
    [
      ['a@example.com', null, GUEST],
      ['b@example.com', null, GUEST],
      ['c@example.com', null, GUEST],
    ],
  );
});

test('addresses already in the organization are skipped with the reference error shape; invalid ones stop everything', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  await s.ok('DELETE', `/api/v1/users/${bob.id}`);
  const partly = await s.api('POST', '/api/v1/invites', { invitee_emails: `owner@example.com,${bob.email},fresh@example.com`, stream_ids: [] });
  assert.equal(partly.status, 400);
  assert.equal(partly.body.code, 'INVITATION_FAILED');
  assert.deepEqual(partly.body.errors, [
    ['owner@example.com', 'Already has an account.', false],
    [bob.email, 'Account has been deactivated.', true],
  ]);
  assert.equal(partly.body.sent_invitations, true);
  assert.equal((await s.ok('GET', '/api/v1/invites')).invites.length, 1);

  const bad = await s.api('POST', '/api/v1/invites', { invitee_emails: 'not-an-address,other@example.com', stream_ids: [] });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 'INVITATION_FAILED');
  assert.equal(bad.body.sent_invitations, false);
  assert.deepEqual(bad.body.errors, [['not-an-address', 'Invalid address.', false]]);
  assert.equal((await s.ok('GET', '/api/v1/invites')).invites.length, 1);

  const none = await s.api('POST', '/api/v1/invites', { invitee_emails: ' , ', stream_ids: [] });
  assert.deepEqual([none.status, none.body.msg], [400, 'You must specify at least one email address.']);
  const stream = await s.api('POST', '/api/v1/invites', { invitee_emails: 'x@example.com', stream_ids: [99999] });
  assert.deepEqual([stream.status, stream.body.msg], [400, 'Invalid channel ID 99999. No invites were sent.']);
  const expiry = await s.api('POST', '/api/v1/invites', { invitee_emails: 'x@example.com', stream_ids: [], invite_expires_in_minutes: 0 });
  assert.equal(expiry.status, 400);
});

test('who may invite: the invite policy, roles no higher than one\'s own, guests never', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const member = await s.createUser('Mia');
  const guest = await s.createUser('Gus', { role: GUEST });
  await s.ok('POST', '/api/v1/invites', { invitee_emails: 'm1@example.com', stream_ids: [] }, member);
  const asAdmin = await s.api('POST', '/api/v1/invites', { invitee_emails: 'm2@example.com', stream_ids: [], invite_as: ADMIN }, { as: member });
  // Decided by the reference (check_role_based_permissions): administrators and moderators are
  // invited by administrators, so this was 'Insufficient permission' before.
  assert.deepEqual([asAdmin.status, asAdmin.body.code, asAdmin.body.msg], [400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator']);
  const byGuest = await s.api('POST', '/api/v1/invites/multiuse', {}, { as: guest });
  assert.deepEqual([byGuest.status, byGuest.body.msg], [400, 'Insufficient permission']);
  // Admins only (policy 2): the member may no longer invite.
  await s.ok('PATCH', '/api/v1/realm', { invite_to_realm_policy: 2 });
  const denied = await s.api('POST', '/api/v1/invites', { invitee_emails: 'm3@example.com', stream_ids: [] }, { as: member });
  assert.deepEqual([denied.status, denied.body.msg], [400, 'Insufficient permission']);
  await s.ok('POST', '/api/v1/invites', { invitee_emails: 'o1@example.com', stream_ids: [], invite_as: 100 });
});

test('members manage their own invitations, administrators everyone\'s; invites_changed goes to admins and the creator', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const member = await s.createUser('Mia');
  const other = await s.createUser('Oto');
  const admin = await s.createUser('Ada', { role: ADMIN });
  const before = s.published.length;
  await s.ok('POST', '/api/v1/invites', { invitee_emails: 'm1@example.com', stream_ids: [] }, member);
  const event = s.published.slice(before).find((p) => p.event.type === 'invites_changed')!;
  assert.deepEqual(event.userIds, [s.owner.id, member.id, admin.id].sort((a, b) => a - b));

  const mine = (await s.ok('GET', '/api/v1/invites', {}, member)).invites;
  assert.equal(mine.length, 1);
  assert.deepEqual((await s.ok('GET', '/api/v1/invites', {}, other)).invites, []);
  assert.equal((await s.ok('GET', '/api/v1/invites', {}, admin)).invites.length, 1);

  const foreign = await s.api('DELETE', `/api/v1/invites/${mine[0].id}`, {}, { as: other });
  assert.deepEqual([foreign.status, foreign.body.msg], [400, 'Must be an organization administrator']);
  await s.ok('POST', `/api/v1/invites/${mine[0].id}/resend`, {}, admin);
  await s.ok('DELETE', `/api/v1/invites/${mine[0].id}`, {}, admin);
  assert.deepEqual((await s.ok('GET', '/api/v1/invites', {}, member)).invites, []);
  const again = await s.api('DELETE', `/api/v1/invites/${mine[0].id}`);
  assert.deepEqual([again.status, again.body.msg], [400, 'No such invitation']);
  const resend = await s.api('POST', `/api/v1/invites/${mine[0].id}/resend`);
  assert.deepEqual([resend.status, resend.body.msg], [400, 'No such invitation']);
  const missing = await s.api('DELETE', '/api/v1/invites/12345');
  assert.deepEqual([missing.status, missing.body.msg], [400, 'No such invitation']);
});

test('reusable links: created with a role and streams, listed with link_url, revoked once', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const events = await verifyAction(s, s.owner, async () => {
    const { invite_link } = await s.ok('POST', '/api/v1/invites/multiuse', { invite_as: 300, invite_expires_in_minutes: 60 });
    assert.match(invite_link, /^http:\/\/localhost\/join\/[a-z2-7]{24}\/$/);
  });
  assert.deepEqual(kinds(events), ['invites_changed']);
  const { invites } = await s.ok('GET', '/api/v1/invites');
  assert.equal(invites.length, 1);
  assert.equal(invites[0].is_multiuse, true);
  assert.equal(invites[0].invited_as, 300);
  assert.equal(invites[0].expiry_date - invites[0].invited, 3600);
  assert.equal('email' in invites[0], false);
  // An email invitation's id is not a reusable link's.
  const wrongKind = await s.api('DELETE', `/api/v1/invites/${invites[0].id}`);
  assert.deepEqual([wrongKind.status, wrongKind.body.msg], [400, 'No such invitation']);
  await s.ok('DELETE', `/api/v1/invites/multiuse/${invites[0].id}`);
  const twice = await s.api('DELETE', `/api/v1/invites/multiuse/${invites[0].id}`);
  assert.deepEqual([twice.status, twice.body.msg], [400, 'Invitation has already been revoked']);
  assert.deepEqual((await s.ok('GET', '/api/v1/invites')).invites, []);
});
