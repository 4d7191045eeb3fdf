// Forgotten passwords: a single-use link by email, and setting a new password through it, which
// ends all of the user's sessions.
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { Realm, User } from '../db/schema.ts';
import { claimPasswordReset, deletePasswordResetsOf, insertPasswordReset, livePasswordReset } from '../db/queries/password-resets.ts';
import { deleteSessionsOfUser } from '../db/queries/sessions.ts';
import { updateUser, userByEmail, userById } from '../db/queries/users.ts';
import { hashPassword } from '../lib/apikey.ts';
import { badRequest } from '../lib/errors.ts';
import { JOINING, passwordResetUrl } from '../lib/joining.ts';
import { sendMail } from '../lib/mail.ts';
import { checkPasswordStrength } from '../lib/validate.ts';
import { runAction } from './action.ts';
import { sessionTokenHash } from './sessions.ts';

/**
 * Mails a reset link if the address is an active user's here. Says nothing either way: the page
 * answers the same whether or not the address exists. The mail is sent without waiting for it.
 */
export async function doRequestPasswordReset(app: AppContext, realm: Realm, email: string): Promise<void> {
  const user = await userByEmail(app.db.kysely, realm.id, email.trim());
  if (!user || !user.is_active || user.is_bot) return;
  const token = randomBytes(32).toString('base64url');
  await runAction(app, async ({ tx, now }) => {
    await insertPasswordReset(tx, { token_hash: sessionTokenHash(token), user_id: user.id, created_at: now, expires_at: now + JOINING.passwordResetSeconds });
  });
  void sendMail(app, {
    to: user.delivery_email,
    subject: `Reset your password for ${realm.name}`,
    text:
      `Somebody (possibly you) asked for a new password for the account ${user.delivery_email} in ${realm.name}.\n\n` +
      `To choose a new password, open this link:\n${passwordResetUrl(app.config, realm, token)}\n\n` +
      `The link works once and expires in ${JOINING.passwordResetSeconds / 3600} hours. If you did not ask for it, you can ignore this email.\n`,
  });
}

/** The user a reset link is for, if it can still be used. */
export async function passwordResetUser(app: AppContext, realm: Realm, token: string): Promise<User | undefined> {
  const row = await livePasswordReset(app.db.kysely, sessionTokenHash(token), Math.floor(Date.now() / 1000));
  const user = row ? await userById(app.db.kysely, realm.id, row.user_id) : undefined;
  return user?.is_active ? user : undefined;
}

/** Sets the new password, spends the link and ends every session of the user. */
export async function checkResetPassword(app: AppContext, user: User, token: string, password: string, confirm: string): Promise<void> {
  if (password !== confirm) throw badRequest("The two password fields didn't match.");
  checkPasswordStrength(password);
  const hash = await hashPassword(password);
  await runAction(app, async ({ tx, now, sessionsEnded }) => {
    if (!(await claimPasswordReset(tx, sessionTokenHash(token), now))) throw badRequest('This link has already been used.');
    await updateUser(tx, user.id, { password_hash: hash });
    await deletePasswordResetsOf(tx, user.id, now);
    await deleteSessionsOfUser(tx, user.id);
    sessionsEnded(user.id);
  });
}
