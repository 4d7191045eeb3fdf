// Invitations: sending (email), reusable links, listing, revoking and resending.
import { optional, p, path } from '../http/params.ts';
import { id, idList } from '../http/ids.ts';
import { route } from '../http/route.ts';
import { badRequest } from '../lib/errors.ts';
import { ROLE } from '../lib/permissions.ts';
import { mailConfigured } from '../lib/mail.ts';
import { presentInvite } from '../presenters/invite.ts';
import {
  checkCreateMultiuseInvite,
  checkInviteUsers,
  checkResendInvite,
  checkRevokeInvite,
  invitationsManagedBy,
} from '../actions/invitations.ts';

/** An integer number of minutes, or null for an invitation that never expires. */
const expiresIn = p.json((v, name) => {
  if (v === null) return null;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw badRequest(`${name} is not an integer`);
  return v;
});

const common = {
  invite_expires_in_minutes: optional(expiresIn),
  invite_as: optional(p.int(), ROLE.MEMBER as number),
  include_realm_default_subscriptions: optional(p.bool(), false),
  notify_referrer_on_join: optional(p.bool(), true),
};

export const inviteRoutes = [
  route({
    method: 'GET',
    path: '/invites',
    auth: 'user',
    params: {},
    async handler({ app, realm, user }) {
      const withLinks = !mailConfigured(app);
      return { invites: (await invitationsManagedBy(app, user, realm)).map((inv) => presentInvite(inv, app.config, realm, withLinks)) };
    },
  }),
  route({
    method: 'POST',
    path: '/invites',
    auth: 'user',
    params: { invitee_emails: p.string(), stream_ids: idList(), ...common },
    async handler({ app, realm, user, params }) {
      await checkInviteUsers(app, user, realm, params.invitee_emails, {
        expiresInMinutes: params.invite_expires_in_minutes,
        inviteAs: params.invite_as,
        streamIds: params.stream_ids,
        includeDefaultStreams: params.include_realm_default_subscriptions,
        notifyReferrer: params.notify_referrer_on_join,
      });
      return {};
    },
  }),
  route({
    method: 'POST',
    path: '/invites/multiuse',
    auth: 'user',
    params: { stream_ids: optional(idList(), []), ...common },
    async handler({ app, realm, user, params }) {
      const link = await checkCreateMultiuseInvite(app, user, realm, {
        expiresInMinutes: params.invite_expires_in_minutes,
        inviteAs: params.invite_as,
        streamIds: params.stream_ids,
        includeDefaultStreams: params.include_realm_default_subscriptions,
        notifyReferrer: params.notify_referrer_on_join,
      });
      return { invite_link: link };
    },
  }),
  route({
    method: 'DELETE',
    path: '/invites/{invite_id}',
    auth: 'user',
    params: { invite_id: path(id()) },
    async handler({ app, realm, user, params }) {
      await checkRevokeInvite(app, user, realm, params.invite_id, false);
      return {};
    },
  }),
  route({
    method: 'DELETE',
    path: '/invites/multiuse/{invite_id}',
    auth: 'user',
    params: { invite_id: path(id()) },
    async handler({ app, realm, user, params }) {
      await checkRevokeInvite(app, user, realm, params.invite_id, true);
      return {};
    },
  }),
  route({
    method: 'POST',
    path: '/invites/{invite_id}/resend',
    auth: 'user',
    params: { invite_id: path(id()) },
    async handler({ app, realm, user, params }) {
      await checkResendInvite(app, user, realm, params.invite_id);
      return {};
    },
  }),
];
