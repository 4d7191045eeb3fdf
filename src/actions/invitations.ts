// Invitations: email invitations and reusable links, created by whoever the realm's
// invite_to_realm_policy allows, managed by their creator and by administrators.
import type { AppContext } from '../context.ts';
import type { Invitation, Realm, User } from '../db/schema.ts';
import { adminUserIds } from '../db/queries/bots.ts';
import { isDefaultStream } from '../db/queries/default-streams.ts';
import { INVITE_STATUS, insertInvitation, invitationById, pendingInvitations, renewInvitation, setInvitationStatus } from '../db/queries/invitations.ts';
import { realmDomains } from '../db/queries/realm-domains.ts';
import { streamById, subscription } from '../db/queries/streams.ts';
import { userById, usersByEmails } from '../db/queries/users.ts';
import { canSeeStream } from '../lib/access.ts';
import { isAdmin, may, requireAdmin, requireMayInviteAs, ROLES } from '../lib/permissions.ts';
import { badRequest, invitationFailed } from '../lib/errors.ts';
import { emailInRealmDomains, JOINING, joinUrl, newLinkKey } from '../lib/joining.ts';
import { sendMail } from '../lib/mail.ts';
import { realmSettings } from '../lib/realm.ts';
import { checkEmail } from '../lib/validate.ts';
import { runAction, type ActionScope } from './action.ts';

export interface InviteOptions {
  /** Minutes until the invitation expires: undefined for the default, null for never. */
  expiresInMinutes: number | null | undefined;
  inviteAs: number;
  streamIds: number[];
  includeDefaultStreams: boolean;
  notifyReferrer: boolean;
}

/** Who hears that the set of invitations changed: administrators and the invitation's creator. */
export async function emitInvitesChanged(scope: ActionScope, realmId: number, referrerId: number | null): Promise<void> {
  const receivers = new Set(await adminUserIds(scope.tx, realmId));
  if (referrerId !== null) receivers.add(referrerId);
  scope.emit({ type: 'invites_changed' }, [...receivers].sort((a, b) => a - b));
}

/** The caller may invite, and as this role (requireMayInviteAs). */
function checkMayInvite(caller: User, realm: Realm, inviteAs: number, now: number): void {
  const settings = realmSettings(realm);
  if (!may(caller, 'inviteToRealm', settings, now)) throw badRequest('Insufficient permission');
  if (!ROLES.includes(inviteAs)) throw badRequest('Invalid invite_as');
  requireMayInviteAs(caller, inviteAs);
}

function expiryOf(minutes: number | null | undefined, now: number): number | null {
  if (minutes === null) return null;
  const m = minutes ?? JOINING.defaultInviteMinutes;
  if (!Number.isInteger(m) || m <= 0 || m > JOINING.maxInviteMinutes) throw badRequest('Invalid invite_expires_in_minutes');
  return now + m * 60;
}

/** The invitation's streams: default streams, or streams the caller may add others to. */
async function checkInviteStreams(app: AppContext, caller: User, realm: Realm, streamIds: number[], now: number): Promise<number[]> {
  const settings = realmSettings(realm);
  const mayAddOthers = may(caller, 'subscribeOthers', settings, now);
  const ids = [...new Set(streamIds)];
  for (const id of ids) {
    const stream = await streamById(app.db.kysely, realm.id, id);
    const sub = stream ? await subscription(app.db.kysely, caller.id, stream.id) : undefined;
    if (!stream || stream.deactivated || !canSeeStream(caller, stream, sub)) throw badRequest(`Invalid channel ID ${id}. No invites were sent.`);
    if (!mayAddOthers && !(await isDefaultStream(app.db.kysely, realm.id, id))) {
      throw badRequest('You do not have permission to subscribe other users to channels.');
    }
  }
  return ids;
}

/** Why an address cannot be invited (or sign up) here, in the reference's words; null if it can. */
export async function emailProblem(app: AppContext, realm: Realm, email: string): Promise<{ msg: string; deactivated: boolean } | null> {
  if (realmSettings(realm).emails_restricted_to_domains && !emailInRealmDomains(email, await realmDomains(app.db.kysely, realm.id))) {
    return { msg: 'Outside your domain.', deactivated: false };
  }
  const [existing] = await usersByEmails(app.db.kysely, realm.id, [email]);
  if (existing) return existing.is_active ? { msg: 'Already has an account.', deactivated: false } : { msg: 'Account has been deactivated.', deactivated: true };
  return null;
}

const invitationMail = (app: AppContext, realm: Realm, inviter: User, inv: Pick<Invitation, 'key' | 'email' | 'expires_at'>) => ({
  to: inv.email!,
  subject: `${inviter.full_name} invited you to join ${realm.name}`,
  text:
    `${inviter.full_name} (${inviter.email}) wants you to join them in ${realm.name}.\n\n` +
    `To get started, open this link and sign up:\n${joinUrl(app.config, realm, inv.key)}\n\n` +
    (inv.expires_at === null ? '' : `The link expires on ${new Date(inv.expires_at * 1000).toUTCString()}.\n`),
});

export async function checkInviteUsers(app: AppContext, caller: User, realm: Realm, inviteeEmails: string, o: InviteOptions): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  checkMayInvite(caller, realm, o.inviteAs, now);
  const raw = [...new Set(inviteeEmails.split(/[,\n]/).map((e) => e.trim()).filter((e) => e !== ''))];
  if (raw.length === 0) throw badRequest('You must specify at least one email address.');
  if (raw.length > JOINING.maxInviteesPerRequest) throw badRequest(`You can invite at most ${JOINING.maxInviteesPerRequest} people at a time.`);
  const expiresAt = expiryOf(o.expiresInMinutes, now);
  const streamIds = await checkInviteStreams(app, caller, realm, o.streamIds, now);

  const invalid: [string, string, boolean][] = [];
  const skipped: [string, string, boolean][] = [];
  const good: string[] = [];
  for (const r of raw) {
    let email: string;
    try {
      email = checkEmail(r);
    } catch {
      invalid.push([r, 'Invalid address.', false]);
      continue;
    }
    const problem = await emailProblem(app, realm, email);
    if (problem?.msg === 'Outside your domain.') invalid.push([r, problem.msg, false]);
    else if (problem) skipped.push([email, problem.msg, problem.deactivated]);
    else good.push(email);
  }
  const failed = (msg: string, errors: [string, string, boolean][], sent: boolean) =>
    invitationFailed(msg, errors, sent);
  if (invalid.length > 0) throw failed("Some emails did not validate, so we didn't send any invitations.", [...invalid, ...skipped], false);
  if (good.length === 0) throw failed("We weren't able to invite anyone.", skipped, false);

  const created = await runAction(app, async (scope) => {
    const rows: Pick<Invitation, 'key' | 'email' | 'expires_at'>[] = [];
    for (const email of good) {
      const row = { key: newLinkKey(), email, expires_at: expiresAt };
      await insertInvitation(scope.tx, {
        ...row,
        realm_id: realm.id,
        kind: 'invite',
        invited_by: caller.id,
        invited_at: scope.now,
        invited_as: o.inviteAs,
        stream_ids: JSON.stringify(streamIds),
        include_default_streams: o.includeDefaultStreams ? 1 : 0,
        notify_referrer: o.notifyReferrer ? 1 : 0,
        status: INVITE_STATUS.PENDING,
      });
      rows.push(row);
    }
    await emitInvitesChanged(scope, realm.id, caller.id);
    return rows;
  });
  for (const inv of created) await sendMail(app, invitationMail(app, realm, caller, inv));
  if (skipped.length > 0) {
    throw failed(
      "Some of those addresses are already using Parley, so we didn't send them an invitation. We did send invitations to everyone else!",
      skipped,
      true,
    );
  }
}

/** Creates a reusable link; returns its URL. */
export async function checkCreateMultiuseInvite(app: AppContext, caller: User, realm: Realm, o: InviteOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  checkMayInvite(caller, realm, o.inviteAs, now);
  const expiresAt = expiryOf(o.expiresInMinutes, now);
  const streamIds = await checkInviteStreams(app, caller, realm, o.streamIds, now);
  const key = newLinkKey();
  await runAction(app, async (scope) => {
    await insertInvitation(scope.tx, {
      realm_id: realm.id,
      key,
      kind: 'multiuse',
      email: null,
      invited_by: caller.id,
      invited_at: scope.now,
      expires_at: expiresAt,
      invited_as: o.inviteAs,
      stream_ids: JSON.stringify(streamIds),
      include_default_streams: o.includeDefaultStreams ? 1 : 0,
      notify_referrer: o.notifyReferrer ? 1 : 0,
      status: INVITE_STATUS.PENDING,
    });
    await emitInvitesChanged(scope, realm.id, caller.id);
  });
  return joinUrl(app.config, realm, key);
}

/** The invitations the caller manages: all of the realm's for administrators, else their own. */
export async function invitationsManagedBy(app: AppContext, caller: User, realm: Realm): Promise<Invitation[]> {
  return pendingInvitations(app.db.kysely, realm.id, Math.floor(Date.now() / 1000), isAdmin(caller) ? null : caller.id);
}

async function managedInvitation(app: AppContext, caller: User, realm: Realm, id: number, multiuse: boolean): Promise<Invitation> {
  const inv = await invitationById(app.db.kysely, realm.id, id);
  if (!inv || inv.kind !== (multiuse ? 'multiuse' : 'invite')) throw badRequest('No such invitation');
  if (inv.invited_by !== caller.id) requireAdmin(caller);
  if (inv.invited_by === null) throw badRequest('No such invitation');
  return inv;
}

export async function checkRevokeInvite(app: AppContext, caller: User, realm: Realm, id: number, multiuse: boolean): Promise<void> {
  const inv = await managedInvitation(app, caller, realm, id, multiuse);
  if (inv.status === INVITE_STATUS.REVOKED) throw badRequest(multiuse ? 'Invitation has already been revoked' : 'No such invitation');
  if (inv.status === INVITE_STATUS.USED) throw badRequest('No such invitation');
  await runAction(app, async (scope) => {
    await setInvitationStatus(scope.tx, inv.id, INVITE_STATUS.REVOKED);
    await emitInvitesChanged(scope, realm.id, inv.invited_by);
  });
}

/** Sends the email again; the link keeps its key and gets a fresh lifetime of the same length. */
export async function checkResendInvite(app: AppContext, caller: User, realm: Realm, id: number): Promise<void> {
  const inv = await managedInvitation(app, caller, realm, id, false);
  const now = Math.floor(Date.now() / 1000);
  if (inv.status !== INVITE_STATUS.PENDING || (inv.expires_at !== null && inv.expires_at <= now)) throw badRequest('No such invitation');
  const expiresAt = inv.expires_at === null ? null : now + (inv.expires_at - inv.invited_at);
  await runAction(app, async (scope) => {
    await renewInvitation(scope.tx, inv.id, scope.now, expiresAt);
    await emitInvitesChanged(scope, realm.id, inv.invited_by);
  });
  const inviter = inv.invited_by === caller.id ? caller : ((await userById(app.db.kysely, realm.id, inv.invited_by!)) ?? caller);
  await sendMail(app, invitationMail(app, realm, inviter, { ...inv, expires_at: expiresAt }));
}
