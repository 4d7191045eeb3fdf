// Invitations as GET /invites shows them (the reference's Invite).
import type { Config } from '../config.ts';
import type { Invitation, Realm } from '../db/schema.ts';
import { joinUrl } from '../lib/joining.ts';

/**
 * `withEmailLinks`: without SMTP an email invitation's link reaches the invitee only through the
 * person who invited them, so it is shown as `link_url` (which the reference has for reusable links).
 */
export function presentInvite(inv: Invitation, config: Pick<Config, 'externalHost' | 'externalScheme'>, realm: Realm, withEmailLinks: boolean): Record<string, unknown> {
  const base = {
    id: inv.id,
    invited_by_user_id: inv.invited_by,
    invited: inv.invited_at,
    expiry_date: inv.expires_at,
    invited_as: inv.invited_as,
    notify_referrer_on_join: inv.notify_referrer === 1,
  };
  if (inv.kind === 'multiuse') return { ...base, is_multiuse: true, link_url: joinUrl(config, realm, inv.key) };
  return { ...base, email: inv.email, is_multiuse: false, ...(withEmailLinks ? { link_url: joinUrl(config, realm, inv.key) } : {}) };
}
