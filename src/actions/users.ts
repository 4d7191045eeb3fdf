// Creating, changing, deactivating and reactivating users.
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/database.ts';
import type { Realm, User } from '../db/schema.ts';
import { botRows } from '../db/queries/bots.ts';
import { realmUserDefaultOverrides } from '../db/queries/realm-admin.ts';
import { newUserOverrides } from '../lib/user-defaults.ts';
import { deleteSessionsOfUser } from '../db/queries/sessions.ts';
import { activeUserIdsInRealm, countActiveOwners, insertUser, updateUser, userByEmail, userByIdOrThrow } from '../db/queries/users.ts';
import { usersWhoCanSeeStream } from '../lib/access.ts';
import { isAdmin, requireAdmin, requireOwner, ROLE, ROLES } from '../lib/permissions.ts';
import { insertSubscription, streamsByIds, subscriptionsOfUser } from '../db/queries/streams.ts';
import { newApiKey, hashPassword } from '../lib/apikey.ts';
import { ApiError, badRequest } from '../lib/errors.ts';
import { checkEmail, checkFullName, checkPasswordStrength } from '../lib/validate.ts';
import { presentUser } from '../presenters/user.ts';
import { realmUrl } from '../lib/realm.ts';
import { profileDataOfUsers } from '../presenters/profile-field.ts';
import { runAction, type ActionScope } from './action.ts';
import { doUpdateProfileData, type ProfileEntry } from './profile-fields.ts';
import { emitActivationGroupChange, emitRoleGroupChange } from './user-groups.ts';
import { newSubscriptionRow } from '../db/queries/subscriptions.ts';
import { defaultStreamIds } from '../db/queries/default-streams.ts';
import { insertRecentStreamHistory } from '../db/queries/messages.ts';
import { LIMITS } from '../lib/limits.ts';

export interface NewUserInput {
  realmId: number;
  email: string;
  fullName: string;
  password: string | null;
  role: number;
  canCreateUsers?: boolean;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  /** Subscribe to the realm's default streams (true unless an invitation says otherwise). */
  defaultStreams?: boolean;
  /** Streams to subscribe to as well (an invitation's); deactivated or unknown ones are skipped. */
  streamIds?: readonly number[];
}

/**
 * The settings a new person starts with: the organization's defaults (PATCH
 * /realm/user_settings_defaults), stored as the user's overrides, but those the registry marks
 * `notForNewUsers`; bots keep the server's defaults (as in the reference).
 */
async function initialSettings(tx: Tx, input: NewUserInput): Promise<string> {
  if (input.isBot) return '{}';
  return JSON.stringify(newUserOverrides(await realmUserDefaultOverrides(tx, input.realmId)));
}

/**
 * Inserts the user, subscribes them to the realm's default streams (and an invitation's), and
 * gives a person the recent messages of those streams whose history subscribers may read.
 */
export async function doCreateUser(tx: Tx, now: number, input: NewUserInput): Promise<{ id: number; apiKey: string }> {
  const apiKey = newApiKey();
  const id = await insertUser(tx, {
    realm_id: input.realmId,
    email: input.email,
    delivery_email: input.email,
    full_name: input.fullName,
    role: input.role,
    is_active: 1,
    is_bot: input.isBot ? 1 : 0,
    bot_type: input.botType ?? null,
    bot_owner_id: input.botOwnerId ?? null,
    is_billing_admin: 0,
    can_create_users: input.canCreateUsers ? 1 : 0,
    api_key: apiKey,
    password_hash: input.password ? await hashPassword(input.password) : null,
    date_joined: now,
    timezone: '',
    avatar_source: 'G',
    avatar_version: 1,
    settings: await initialSettings(tx, input),
  });
  const defaults =
    input.defaultStreams === false
      ? []
      : await defaultStreamIds(tx, input.realmId);
  const extra = input.streamIds?.length ? (await streamsByIds(tx, input.realmId, input.streamIds)).filter((st) => !st.deactivated).map((st) => st.id) : [];
  const streamIds = [...new Set([...defaults, ...extra])];
  let i = 0;
  for (const streamId of streamIds) {
    await insertSubscription(tx, newSubscriptionRow(id, streamId, i++));
  }
  // A person's feed starts with what their streams said lately, so it is not empty until someone
  // speaks; bots start with nothing (the reference gives history to new humans only).
  if (!input.isBot) {
    await insertRecentStreamHistory(tx, id, streamIds, {
      since: now - LIMITS.newUserHistorySeconds,
      total: LIMITS.newUserHistoryMessages,
      unread: LIMITS.newUserHistoryUnread,
    });
  }
  return { id, apiKey };
}

/** Subscriber lists count active users only: the user's streams gain or lose them as a subscriber. */
export async function emitPeerChanges(scope: ActionScope, userId: number, op: 'peer_add' | 'peer_remove'): Promise<void> {
  for (const { stream } of await subscriptionsOfUser(scope.tx, userId)) {
    const audience = (await usersWhoCanSeeStream(scope.tx, stream)).filter((id) => id !== userId);
    scope.emit({ type: 'subscription', op, stream_ids: [stream.id], user_ids: [userId] }, audience);
  }
}

export async function emitUserAdded(app: AppContext, scope: ActionScope, realm: Realm, userId: number): Promise<void> {
  const user = await userByIdOrThrow(scope.tx, userId);
  const person = presentUser(user, { clientExternalAvatar: false, realmUrl: realmUrl(app.config, realm) });
  const profileData = (await profileDataOfUsers(scope.tx, realm.id, [userId])).get(userId) ?? {};
  scope.emit(
    { type: 'realm_user', op: 'add', person: { ...person, profile_data: profileData }, avatar_external: user.avatar_source !== 'U' },
    await activeUserIdsInRealm(scope.tx, realm.id),
  );
  await emitPeerChanges(scope, userId, 'peer_add');
  await emitActivationGroupChange(scope, user, true);
}

export async function checkCreateUserByAdmin(
  app: AppContext,
  caller: User,
  realm: Realm,
  input: { email: string; password: string; fullName: string },
): Promise<number> {
  requireAdmin(caller);
  if (!caller.can_create_users) throw badRequest('User not authorized for this query');
  const email = checkEmail(input.email);
  const fullName = checkFullName(input.fullName);
  checkPasswordStrength(input.password);
  return runAction(app, async (scope) => {
    if (await userByEmail(scope.tx, realm.id, email)) throw badRequest(`Email '${email}' already in use`);
    const { id } = await doCreateUser(scope.tx, scope.now, { realmId: realm.id, email, fullName, password: input.password, role: ROLE.MEMBER });
    await emitUserAdded(app, scope, realm, id);
    return id;
  });
}

export interface UserChanges {
  fullName?: string;
  role?: number;
  profileData?: ProfileEntry[];
}

export async function checkUpdateUser(app: AppContext, caller: User, target: User, changes: UserChanges): Promise<void> {
  requireAdmin(caller);
  const fullName = changes.fullName === undefined ? undefined : checkFullName(changes.fullName);
  const role = changes.role;
  if (role !== undefined) {
    if (!ROLES.includes(role)) throw badRequest('Invalid role');
    if ((role === ROLE.OWNER || target.role === ROLE.OWNER) && role !== target.role) requireOwner(caller);
    if (target.is_bot && role === ROLE.OWNER) throw badRequest('Bots cannot be organization owners');
  }
  await runAction(app, async (scope) => {
    if (role !== undefined && role !== target.role) {
      if (target.role === ROLE.OWNER && (await countActiveOwners(scope.tx, target.realm_id)) <= 1) {
        throw badRequest('The owner permission cannot be removed from the only organization owner.');
      }
      await updateUser(scope.tx, target.id, { role, can_create_users: isAdmin({ role }) ? target.can_create_users : 0 });
      scope.emit({ type: 'realm_user', op: 'update', person: { user_id: target.id, role } }, await activeUserIdsInRealm(scope.tx, target.realm_id));
      await emitRoleGroupChange(scope, target, target.role, role);
    }
    if (fullName !== undefined && fullName !== target.full_name) {
      await updateUser(scope.tx, target.id, { full_name: fullName });
      scope.emit(
        { type: 'realm_user', op: 'update', person: { user_id: target.id, full_name: fullName } },
        await activeUserIdsInRealm(scope.tx, target.realm_id),
      );
    }
    if (changes.profileData !== undefined) await doUpdateProfileData(app, scope, caller, target, changes.profileData);
  });
}

export async function checkDeactivateUser(app: AppContext, caller: User, target: User): Promise<void> {
  if (caller.id !== target.id) requireAdmin(caller);
  if (target.role === ROLE.OWNER && caller.id !== target.id) requireOwner(caller);
  await runAction(app, async (scope) => {
    if (target.role === ROLE.OWNER && !target.is_bot && (await countActiveOwners(scope.tx, target.realm_id)) <= 1) {
      throw new ApiError('Cannot deactivate the only organization owner', 'BAD_REQUEST');
    }
    const recipients = await activeUserIdsInRealm(scope.tx, target.realm_id);
    await emitPeerChanges(scope, target.id, 'peer_remove');
    await updateUser(scope.tx, target.id, { is_active: 0 });
    // Their browsers are logged out at once, not only refused from now on.
    await deleteSessionsOfUser(scope.tx, target.id);
    scope.sessionsEnded(target.id);
    await emitActivationGroupChange(scope, target, false);
    // The deactivated user's own clients hear of it too, so they can log out.
    scope.emit({ type: 'realm_user', op: 'remove', person: { user_id: target.id, full_name: target.full_name } }, recipients);
    // Their bots stop with them (and stay stopped if they come back).
    for (const { user: bot } of await botRows(scope.tx, target.realm_id, target.id)) {
      if (bot.is_active) await doDeactivateBot(scope, bot, recipients);
    }
  });
}

/** Deactivates a bot, telling `everyone` (the realm's active users). */
export async function doDeactivateBot(scope: ActionScope, bot: User, everyone: number[]): Promise<void> {
  await updateUser(scope.tx, bot.id, { is_active: 0 });
  scope.emit({ type: 'realm_user', op: 'remove', person: { user_id: bot.id, full_name: bot.full_name } }, everyone);
  scope.emit({ type: 'realm_bot', op: 'remove', bot: { user_id: bot.id, full_name: bot.full_name } }, everyone);
  await emitPeerChanges(scope, bot.id, 'peer_remove');
  await emitActivationGroupChange(scope, bot, false);
}

export async function checkReactivateUser(app: AppContext, caller: User, realm: Realm, target: User): Promise<void> {
  requireAdmin(caller);
  if (target.is_active) throw badRequest('User is already active');
  await runAction(app, async (scope) => {
    await updateUser(scope.tx, target.id, { is_active: 1 });
    await emitUserAdded(app, scope, realm, target.id);
  });
}

export const canSeeDeliveryEmail = (viewer: User): boolean => isAdmin(viewer);
