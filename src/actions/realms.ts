// Creating an organization: the realm, its system groups, its owner and a first stream.
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/database.ts';
import { insertRealm, realmBySubdomain } from '../db/queries/realms.ts';
import { insertSystemGroups } from '../db/queries/groups.ts';
import { badRequest } from '../lib/errors.ts';
import { ROLE } from '../lib/permissions.ts';
import { runAction } from './action.ts';
import { doCreateUser } from './users.ts';
import { doCreateStream } from './streams.ts';
import { checkEmail, checkFullName } from '../lib/validate.ts';

export interface CreateRealmInput {
  name: string;
  subdomain: string;
  ownerEmail: string;
  ownerName: string;
  ownerPassword: string | null;
}

const SUBDOMAIN_RE = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)?$/;

export async function checkCreateRealm(app: AppContext, input: CreateRealmInput): Promise<{ realmId: number; userId: number; apiKey: string }> {
  const subdomain = input.subdomain.trim().toLowerCase();
  if (!SUBDOMAIN_RE.test(subdomain)) throw badRequest('Subdomains may use only letters, digits and hyphens');
  const name = input.name.trim();
  if (!name || name.length > 40) throw badRequest('The organization name must have 1 to 40 characters');
  const email = checkEmail(input.ownerEmail);
  const fullName = checkFullName(input.ownerName);
  if (await realmBySubdomain(app.db.kysely, subdomain)) throw badRequest(`Subdomain '${subdomain || '(none)'}' is already in use`);
  return runAction(app, (scope) => doCreateRealm(scope.tx, scope.now, { name, subdomain, email, fullName, password: input.ownerPassword }));
}

async function doCreateRealm(
  tx: Tx,
  now: number,
  input: { name: string; subdomain: string; email: string; fullName: string; password: string | null },
): Promise<{ realmId: number; userId: number; apiKey: string }> {
  const realmId = await insertRealm(tx, { name: input.name, subdomain: input.subdomain, description: '', date_created: now, settings: '{}' });
  const groups = await insertSystemGroups(tx, realmId, now);
  const owner = await doCreateUser(tx, now, {
    realmId,
    email: input.email,
    fullName: input.fullName,
    password: input.password,
    role: ROLE.OWNER,
    canCreateUsers: true,
  });
  const general = await doCreateStream(tx, now, {
    realmId,
    name: 'general',
    description: 'Everyone is added to this stream by default.',
    inviteOnly: false,
    isWebPublic: false,
    historyPublicToSubscribers: true,
    streamPostPolicy: 1,
    messageRetentionDays: null,
    canRemoveSubscribersGroupId: groups.administrators,
    creatorId: owner.id,
  });
  await tx.insertInto('default_streams').values({ realm_id: realmId, stream_id: general.id }).execute();
  await tx.insertInto('subscriptions').values(newSubscriptionRow(owner.id, general.id, 0)).execute();
  await tx
    .updateTable('realms')
    .set({ settings: JSON.stringify({ notifications_stream_id: general.id, signup_notifications_stream_id: general.id }) })
    .where('id', '=', realmId)
    .execute();
  return { realmId, userId: owner.id, apiKey: owner.apiKey };
}

const COLORS = ['#76ce90', '#fae589', '#a6c7e5', '#e79ab5', '#bfd56f', '#f4ae55', '#b0a5fd', '#addfe5', '#f5ce6e', '#c2726a', '#94c849', '#bd86e5'];

export function newSubscriptionRow(userId: number, streamId: number, index: number) {
  return {
    user_id: userId,
    stream_id: streamId,
    active: 1,
    is_muted: 0,
    pin_to_top: 0,
    color: COLORS[(streamId + index) % COLORS.length]!,
    desktop_notifications: null,
    email_notifications: null,
    push_notifications: null,
    audible_notifications: null,
    wildcard_mentions_notify: null,
  };
}
