// The pages that open an invitation or sign-up link (/join/<key>/): a form, and on success a new
// account, a session and the app. Bad input shows the form again with the error; nothing is made.
import type { FastifyReply } from 'fastify';
import type { Realm } from '../db/schema.ts';
import type { Invitation } from '../db/schema.ts';
import { optional, p, path } from '../http/params.ts';
import { route, SENT, type ApiRequest } from '../http/route.ts';
import { setSessionCookies } from '../http/cookies.ts';
import { esc, formHtml, loginLinkHtml, sendPage, sendStylesheet, STYLESHEET_PATH, type Field } from '../http/pages.ts';
import { ApiError } from '../lib/errors.ts';
import { checkJoin, checkRequestLinkConfirmation, checkRequestSignup, joinLink, linkConfirmsEmail, type LinkState } from '../actions/joining.ts';
import { countEmailRequest } from '../http/email-request-limit.ts';
import { realmSettings } from '../lib/realm.ts';
import { doCreateSession } from '../actions/sessions.ts';

const LINK_PAGES: Record<Exclude<LinkState, 'ok'>, [number, string, string]> = {
  missing: [404, 'Invalid link', 'This link is not valid. Check that you copied all of it, or ask for a new one.'],
  used: [410, 'Link already used', 'This link has already been used. If you joined with it, log in instead.'],
  revoked: [410, 'Invitation revoked', 'This invitation has been revoked. Ask the person who invited you for a new one.'],
  expired: [410, 'Link expired', 'This link has expired. Ask for a new one.'],
};

export function sendLinkProblem(reply: FastifyReply, realm: Realm, state: Exclude<LinkState, 'ok'>): void {
  const [status, title, text] = LINK_PAGES[state];
  sendPage(reply, status, `${title} · ${realm.name}`, `<h1>${esc(title)}</h1>\n<p>${esc(text)}</p>\n<p><a href="/">Go to ${esc(realm.name)}</a></p>`);
}

function sendJoinForm(reply: FastifyReply, realm: Realm, inv: Invitation, values: { email: string; fullName: string }, error: string | null): void {
  const fields: Field[] = [
    inv.email === null
      ? { name: 'email', label: 'Email', type: 'email', value: values.email, autocomplete: 'email' }
      : { name: 'email', label: 'Email', type: 'email', value: inv.email, autocomplete: 'email', readonly: true },
    { name: 'full_name', label: 'Full name', value: values.fullName, autocomplete: 'name' },
    { name: 'password', label: 'Password', type: 'password', autocomplete: 'new-password' },
  ];
  const body =
    `<h1>${esc(joinHeading(realm))}</h1>\n` +
    `<p class="muted">Create your account in the organization <strong>${esc(realm.name)}</strong>.</p>\n` +
    formHtml(`/join/${inv.key}/`, fields, 'Sign up', error) +
    loginLinkHtml('have-account');
  sendPage(reply, error ? 400 : 200, `Sign up · ${realm.name}`, body);
}

function sendSignupForm(reply: FastifyReply, realm: Realm, email: string, error: string | null, status = error ? 400 : 200): void {
  if (realmSettings(realm).invite_required) {
    sendPage(reply, 403, `Sign up · ${realm.name}`, `<h1>Invitation required</h1>\n<p>${esc(realm.name)} requires an invitation to join. Ask one of its members for one.</p>\n<p><a href="/">Log in</a></p>`);
    return;
  }
  sendEmailStep(reply, realm, '/accounts/register/', `Sign up to ${realm.name}`, email, error, status);
}

/** The first step where mail can be sent (open sign-up, a reusable link): the address only. */
function sendEmailStep(reply: FastifyReply, realm: Realm, action: string, heading: string, email: string, error: string | null, status = error ? 400 : 200): void {
  const body =
    `<h1>${esc(heading)}</h1>\n<p class="muted">Enter your email address; we will send you a link to finish signing up.</p>\n` +
    formHtml(action, [{ name: 'email', label: 'Email', type: 'email', value: email, autocomplete: 'email' }], 'Sign up', error) +
    loginLinkHtml('have-account');
  sendPage(reply, status, `Sign up · ${realm.name}`, body);
}

/**
 * Mails the confirmation link (`request`, under the per-address limit) and says so; a refusal
 * shows the first step again (`again`) with the error.
 */
async function mailConfirmation(
  { app, realm, http, reply }: Pick<ApiRequest<unknown>, 'app' | 'realm' | 'http' | 'reply'>,
  email: string,
  request: () => Promise<void>,
  again: (error: string, status: number) => void,
): Promise<typeof SENT> {
  try {
    await countEmailRequest(app, http, realm, email);
    await request();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const limited = err.code === 'RATE_LIMIT_HIT';
    again(limited ? 'Too many requests. Please wait a while and try again.' : err.message, limited ? 429 : 400);
    return SENT;
  }
  sendPage(
    reply,
    200,
    `Check your email · ${realm.name}`,
    `<h1>Check your email</h1>\n<p>We have sent a link to <strong>${esc(email)}</strong>. Open it to finish signing up to ${esc(realm.name)}.</p>`,
  );
  return SENT;
}

const joinHeading = (realm: Realm): string => `Join ${realm.name}`;

export const joinRoutes = [
  route({
    method: 'GET',
    path: '/accounts/register/',
    auth: 'none',
    params: {},
    async handler({ realm, reply }) {
      sendSignupForm(reply, realm, '', null);
      return SENT;
    },
  }),
  route({
    method: 'POST',
    path: '/accounts/register/',
    auth: 'none',
    params: { email: optional(p.string({ trim: true, maxLength: 254 }), '') },
    async handler(req) {
      const { app, realm, params, reply } = req;
      if (realmSettings(realm).invite_required || params.email === '') {
        sendSignupForm(reply, realm, '', realmSettings(realm).invite_required ? null : 'Please enter your email address.');
        return SENT;
      }
      return mailConfirmation(
        req,
        params.email,
        () => checkRequestSignup(app, realm, params.email),
        (error, status) => sendSignupForm(reply, realm, params.email, error, status),
      );
    },
  }),
  route({
    method: 'GET',
    path: STYLESHEET_PATH,
    auth: 'server',
    params: {},
    async handler({ http, reply }) {
      sendStylesheet(reply, http.headers['if-none-match']);
      return SENT;
    },
  }),
  route({
    method: 'GET',
    path: '/join/{key}/',
    auth: 'none',
    params: { key: path(p.string()) },
    async handler({ app, realm, params, reply }) {
      const { inv, state } = await joinLink(app, realm, params.key);
      if (state !== 'ok') sendLinkProblem(reply, realm, state);
      else if (linkConfirmsEmail(app, inv!)) sendEmailStep(reply, realm, `/join/${inv!.key}/`, joinHeading(realm), '', null);
      else sendJoinForm(reply, realm, inv!, { email: '', fullName: '' }, null);
      return SENT;
    },
  }),
  route({
    method: 'POST',
    path: '/join/{key}/',
    auth: 'none',
    params: { key: path(p.string()), email: optional(p.string(), ''), full_name: optional(p.string(), ''), password: optional(p.string(), '') },
    async handler(req) {
      const { app, realm, params, reply } = req;
      const { inv, state } = await joinLink(app, realm, params.key);
      if (state !== 'ok') {
        sendLinkProblem(reply, realm, state);
        return SENT;
      }
      // With mail, a reusable link only ever mails a confirmation: the account is made from that.
      if (linkConfirmsEmail(app, inv!)) {
        const again = (error: string, status: number) => sendEmailStep(reply, realm, `/join/${inv!.key}/`, joinHeading(realm), params.email, error, status);
        return mailConfirmation(req, params.email, () => checkRequestLinkConfirmation(app, realm, inv!, params.email), again);
      }
      let user;
      try {
        user = await checkJoin(app, realm, inv!, { email: params.email, fullName: params.full_name, password: params.password });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        sendJoinForm(reply, realm, inv!, { email: params.email, fullName: params.full_name }, err.message);
        return SENT;
      }
      const { token, csrfToken } = await doCreateSession(app, user);
      setSessionCookies(reply, app.config, token, csrfToken);
      void reply.code(303).header('location', '/').header('cache-control', 'no-store').send();
      return SENT;
    },
  }),
];
