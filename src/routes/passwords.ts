// "Forgot password": the request form (/accounts/password/reset/) and the page its mailed link
// opens (/accounts/password/reset/<token>/), as server-rendered forms.
import type { FastifyReply } from 'fastify';
import type { Realm } from '../db/schema.ts';
import { optional, p, path } from '../http/params.ts';
import { route, SENT } from '../http/route.ts';
import { esc, formHtml, loginLinkHtml, sendPage } from '../http/pages.ts';
import { countEmailRequest } from '../http/email-request-limit.ts';
import { ApiError } from '../lib/errors.ts';
import { checkResetPassword, doRequestPasswordReset, passwordResetUser } from '../actions/passwords.ts';

const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

function sendRequestForm(reply: FastifyReply, realm: Realm, email: string, error: string | null, status = error ? 400 : 200): void {
  const body =
    `<h1>Forgot your password?</h1>\n<p class="muted">Enter the email address of your account in <strong>${esc(realm.name)}</strong>; we will send you a link to choose a new password.</p>\n` +
    formHtml('/accounts/password/reset/', [{ name: 'email', label: 'Email', type: 'email', value: email, autocomplete: 'email' }], 'Send reset link', error) +
    loginLinkHtml('back');
  sendPage(reply, status, `Reset your password · ${realm.name}`, body);
}

function sendResetForm(reply: FastifyReply, realm: Realm, token: string, error: string | null): void {
  const body =
    `<h1>Choose a new password</h1>\n` +
    formHtml(
      `/accounts/password/reset/${token}/`,
      [
        { name: 'new_password', label: 'New password', type: 'password', autocomplete: 'new-password' },
        { name: 'confirm_password', label: 'Confirm password', type: 'password', autocomplete: 'new-password' },
      ],
      'Set new password',
      error,
    );
  sendPage(reply, error ? 400 : 200, `Choose a new password · ${realm.name}`, body);
}

function sendBadLink(reply: FastifyReply, realm: Realm): void {
  sendPage(
    reply,
    410,
    `Link expired · ${realm.name}`,
    `<h1>This link cannot be used</h1>\n<p>Password reset links work once and expire after a day. <a href="/accounts/password/reset/">Ask for a new one</a>.</p>`,
  );
}

export const passwordRoutes = [
  route({
    method: 'GET',
    path: '/accounts/password/reset/',
    auth: 'none',
    params: {},
    async handler({ realm, reply }) {
      sendRequestForm(reply, realm, '', null);
      return SENT;
    },
  }),
  route({
    method: 'POST',
    path: '/accounts/password/reset/',
    auth: 'none',
    params: { email: optional(p.string({ trim: true, maxLength: 254 }), '') },
    async handler({ app, realm, params, http, reply }) {
      if (params.email === '') {
        sendRequestForm(reply, realm, '', 'Please enter your email address.');
        return SENT;
      }
      try {
        await countEmailRequest(app, http, realm, params.email);
      } catch (err) {
        if (!(err instanceof ApiError) || err.code !== 'RATE_LIMIT_HIT') throw err;
        sendRequestForm(reply, realm, params.email, 'Too many requests for a new password. Please wait a while and try again.', 429);
        return SENT;
      }
      await doRequestPasswordReset(app, realm, params.email);
      // The same answer whether or not the address has an account here.
      sendPage(
        reply,
        200,
        `Check your email · ${realm.name}`,
        `<h1>Check your email</h1>\n<p>If <strong>${esc(params.email)}</strong> belongs to an account in ${esc(realm.name)}, we have sent it a link to choose a new password.</p>`,
      );
      return SENT;
    },
  }),
  route({
    method: 'GET',
    path: '/accounts/password/reset/{token}/',
    auth: 'none',
    params: { token: path(p.string()) },
    async handler({ app, realm, params, reply }) {
      const user = TOKEN_RE.test(params.token) ? await passwordResetUser(app, realm, params.token) : undefined;
      if (!user) sendBadLink(reply, realm);
      else sendResetForm(reply, realm, params.token, null);
      return SENT;
    },
  }),
  route({
    method: 'POST',
    path: '/accounts/password/reset/{token}/',
    auth: 'none',
    params: { token: path(p.string()), new_password: optional(p.string(), ''), confirm_password: optional(p.string(), '') },
    async handler({ app, realm, params, reply }) {
      const user = TOKEN_RE.test(params.token) ? await passwordResetUser(app, realm, params.token) : undefined;
      if (!user) {
        sendBadLink(reply, realm);
        return SENT;
      }
      try {
        await checkResetPassword(app, user, params.token, params.new_password, params.confirm_password);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        sendResetForm(reply, realm, params.token, err.message);
        return SENT;
      }
      sendPage(reply, 200, `Password changed · ${realm.name}`, `<h1>Password changed</h1>\n<p>Your new password is set, and you have been logged out everywhere.</p>\n<p><a href="/">Log in to ${esc(realm.name)}</a></p>`);
      return SENT;
    },
  }),
];
