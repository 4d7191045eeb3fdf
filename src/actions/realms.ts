// Creating an organization: the realm, its system groups, its owner and a first stream.
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/database.ts';
import { insertRealm, realmBySubdomain, updateRealmSettings } from '../db/queries/realms.ts';
import { insertSystemGroups } from '../db/queries/groups.ts';
import { newSubscriptionRow } from '../db/queries/subscriptions.ts';
import { insertSubscription } from '../db/queries/streams.ts';
import { addDefaultStream } from '../db/queries/default-streams.ts';
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
  await addDefaultStream(tx, realmId, general.id);
  await insertSubscription(tx, newSubscriptionRow(owner.id, general.id, 0));
  await updateRealmSettings(tx, realmId, JSON.stringify({ notifications_stream_id: general.id, signup_notifications_stream_id: general.id }));
  return { realmId, userId: owner.id, apiKey: owner.apiKey };
}
