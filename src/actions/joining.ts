// Joining through a link: an email invitation, a reusable link or an open sign-up's confirmation.
import type { AppContext } from '../context.ts';
import type { Invitation, Realm, User } from '../db/schema.ts';
import { claimInvitation, INVITE_STATUS, insertInvitation, invitationByKey, markInvitationsOfEmailUsed } from '../db/queries/invitations.ts';
import { userByEmail, userById } from '../db/queries/users.ts';
import { badRequest } from '../lib/errors.ts';
import { JOINING, joinUrl, LINK_KEY_RE, newLinkKey } from '../lib/joining.ts';
import { ROLE } from '../lib/permissions.ts';
import { mailConfigured, sendMail } from '../lib/mail.ts';
import { realmSettings, realmUrl } from '../lib/realm.ts';
import { checkEmail, checkFullName, checkPasswordStrength } from '../lib/validate.ts';
import { runAction } from './action.ts';
import { emailProblem, emitInvitesChanged } from './invitations.ts';
import { checkSendMessage } from './messages/send.ts';
import { notificationBot } from './messages/notices.ts';
import { doCreateUser, emitUserAdded } from './users.ts';

export type LinkState = 'ok' | 'missing' | 'used' | 'revoked' | 'expired';

/** The link's invitation and whether it can still be used. */
export async function joinLink(app: AppContext, realm: Realm, key: string): Promise<{ inv: Invitation | undefined; state: LinkState }> {
  const inv = LINK_KEY_RE.test(key) ? await invitationByKey(app.db.kysely, key) : undefined;
  if (!inv || inv.realm_id !== realm.id) return { inv: undefined, state: 'missing' };
  if (inv.status === INVITE_STATUS.REVOKED) return { inv, state: 'revoked' };
  if (inv.status === INVITE_STATUS.USED) return { inv, state: 'used' };
  if (inv.expires_at !== null && inv.expires_at <= Math.floor(Date.now() / 1000)) return { inv, state: 'expired' };
  return { inv, state: 'ok' };
}

export interface JoinInput {
  /** Asked for by a reusable link only; the others carry their address. */
  email: string;
  fullName: string;
  password: string;
}

/** Creates the account the link allows; throws a coded error (shown on the form) on bad input. */
export async function checkJoin(app: AppContext, realm: Realm, inv: Invitation, input: JoinInput): Promise<User> {
  let email: string;
  if (inv.email !== null) {
    email = inv.email;
  } else {
    if (input.email.trim() === '') throw badRequest('Please enter your email address.');
    email = checkEmail(input.email);
  }
  const fullName = checkFullName(input.fullName);
  checkPasswordStrength(input.password);
  const problem = await emailProblem(app, realm, email);
  if (problem?.msg === 'Outside your domain.' && inv.kind !== 'invite') throw badRequest('Your email address is not allowed to join this organization.');
  if (problem && problem.msg !== 'Outside your domain.') throw badRequest('An account with this email address already exists in this organization. Log in instead.');

  const userId = await runAction(app, async (scope) => {
    if (inv.kind !== 'multiuse' && !(await claimInvitation(scope.tx, inv.id))) throw badRequest('This link has already been used.');
    if (await userByEmail(scope.tx, realm.id, email)) throw badRequest('An account with this email address already exists in this organization. Log in instead.');
    const { id } = await doCreateUser(scope.tx, scope.now, {
      realmId: realm.id,
      email,
      fullName,
      password: input.password,
      role: inv.invited_as,
      defaultStreams: inv.include_default_streams === 1,
      streamIds: JSON.parse(inv.stream_ids) as number[],
    });
    // The address's other invitations are spent: they would only fail now.
    await markInvitationsOfEmailUsed(scope.tx, realm.id, email);
    await emitUserAdded(app, scope, realm, id);
    if (inv.kind === 'invite') await emitInvitesChanged(scope, realm.id, inv.invited_by);
    return id;
  });
  const user = (await userById(app.db.kysely, realm.id, userId))!;
  if (inv.notify_referrer === 1 && inv.invited_by !== null) await notifyReferrer(app, realm, inv.invited_by, user);
  return user;
}

/** A direct message from the notification bot, worded as the reference words it. */
async function notifyReferrer(app: AppContext, realm: Realm, referrerId: number, user: User): Promise<void> {
  const referrer = await userById(app.db.kysely, realm.id, referrerId);
  if (!referrer?.is_active) return;
  const bot = await notificationBot(app, realm);
  await checkSendMessage(app, bot, realm, {
    addressee: { type: 'private', users: [referrer] },
    content: `@_**${user.full_name}|${user.id}** accepted your invitation to join ${realm.name}!`,
    client: 'Internal',
    internal: true,
  });
}

/**
 * A reusable link needs the address confirmed first when the server can send mail: anyone who
 * has the link could otherwise sign up with someone else's address. Without SMTP nobody could
 * receive the mail, so the link's form creates the account at once, as before.
 */
export const linkConfirmsEmail = (app: AppContext, inv: Invitation): boolean => inv.kind === 'multiuse' && mailConfigured(app);

/**
 * Open sign-up: mails a confirmation link (/join/<key>/, then the invitation's form) to an address
 * the realm accepts. An address that has an account gets a note saying so instead, so the page
 * answers the same either way. Throws a coded error for an address the realm does not accept.
 */
export async function checkRequestSignup(app: AppContext, realm: Realm, rawEmail: string): Promise<void> {
  if (realmSettings(realm).invite_required) throw badRequest('This organization requires an invitation to join.');
  await requestConfirmation(app, realm, rawEmail, null);
}

/**
 * A reusable link's first step, when mail can be sent: the confirmation mailed to the address
 * carries the link's role, streams and inviter, and lasts a day (never past the link's expiry).
 */
export async function checkRequestLinkConfirmation(app: AppContext, realm: Realm, link: Invitation, rawEmail: string): Promise<void> {
  if (rawEmail.trim() === '') throw badRequest('Please enter your email address.');
  await requestConfirmation(app, realm, rawEmail, link);
}

async function requestConfirmation(app: AppContext, realm: Realm, rawEmail: string, link: Invitation | null): Promise<void> {
  const email = checkEmail(rawEmail);
  const problem = await emailProblem(app, realm, email);
  if (problem?.msg === 'Outside your domain.') {
    throw badRequest(`Your email address, ${email}, is not in one of the domains that are allowed to register for accounts in this organization.`);
  }
  if (problem) {
    void sendMail(app, {
      to: email,
      subject: `You already have an account in ${realm.name}`,
      text: `Somebody (possibly you) asked to sign up to ${realm.name} as ${email}, which already has an account there.\n\nLog in at ${realmUrl(app.config, realm)}/ or, if you forgot your password, ask for a new one at ${realmUrl(app.config, realm)}/accounts/password/reset/\n`,
    });
    return;
  }
  const key = newLinkKey();
  const lifetime = await runAction(app, async (scope) => {
    const dayLater = scope.now + JOINING.signupConfirmationSeconds;
    const expiresAt = link?.expires_at != null ? Math.min(link.expires_at, dayLater) : dayLater;
    await insertInvitation(scope.tx, {
      realm_id: realm.id,
      key,
      kind: 'signup',
      email,
      invited_by: link?.invited_by ?? null,
      invited_at: scope.now,
      expires_at: expiresAt,
      invited_as: link?.invited_as ?? ROLE.MEMBER,
      stream_ids: link?.stream_ids ?? '[]',
      include_default_streams: link?.include_default_streams ?? 1,
      notify_referrer: link?.notify_referrer ?? 0,
      status: INVITE_STATUS.PENDING,
    });
    return expiresAt - scope.now;
  });
  const minutes = Math.max(1, Math.ceil(lifetime / 60));
  const expiry = minutes < 120 ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${Math.round(minutes / 60)} hours`;
  void sendMail(app, {
    to: email,
    subject: `Confirm your email to join ${realm.name}`,
    text: `To finish signing up to ${realm.name}, open this link:\n${joinUrl(app.config, realm, key)}\n\nThe link expires in ${expiry}. If you did not ask to sign up, you can ignore this email.\n`,
  });
}
