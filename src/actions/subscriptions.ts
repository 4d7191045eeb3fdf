// Subscribing to streams (creating the ones that do not exist yet) and unsubscribing.
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/database.ts';
import type { Realm, Stream, User } from '../db/schema.ts';
import { streamByName, subscriberIds, subscription } from '../db/queries/streams.ts';
import { systemGroupByName } from '../db/queries/groups.ts';
import { canSeeStream, isAdmin, isGuest, isModerator, usersWhoCanSeeStream } from '../lib/access.ts';
import { ApiError, adminRequired, badRequest } from '../lib/errors.ts';
import { userInGroup } from '../lib/groups.ts';
import { COMMON_POLICY, LIMITS, type RealmSettings } from '../lib/limits.ts';
import { realmSettings } from '../lib/realm.ts';
import { checkStreamName } from '../lib/validate.ts';
import { presentStream, presentSubscription } from '../presenters/stream.ts';
import { runAction, type ActionScope } from './action.ts';
import { newSubscriptionRow } from './realms.ts';
import { doCreateStream } from './streams.ts';
import { doAddDefaultStream } from './default-streams.ts';

export interface StreamSpec {
  name: string;
  description: string;
}

export interface NewStreamOptions {
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean | undefined;
  streamPostPolicy: number;
  messageRetentionDays: number | null;
  canRemoveSubscribersGroupId: number | undefined;
  /** Makes the streams this request creates default streams (administrators only). */
  isDefaultStream?: boolean;
}

export interface SubscribeResult {
  subscribed: Record<string, string[]>;
  already_subscribed: Record<string, string[]>;
  unauthorized?: string[];
}

/** Whether the user passes one of the realm's "who may" policies. */
export function passesPolicy(user: User, policy: number, settings: RealmSettings, now: number): boolean {
  switch (policy) {
    case COMMON_POLICY.ADMINS:
      return isAdmin(user);
    case COMMON_POLICY.MODERATORS:
      return isModerator(user);
    case COMMON_POLICY.FULL_MEMBERS:
      return !isGuest(user) && (isAdmin(user) || now - user.date_joined >= settings.waiting_period_threshold * 86400);
    case COMMON_POLICY.EVERYONE:
      return true;
    case COMMON_POLICY.NOBODY:
      return false;
    default:
      return !isGuest(user);
  }
}

function checkCreatePermission(user: User, realm: Realm, opts: NewStreamOptions, now: number): void {
  const settings = realmSettings(realm);
  const policy = opts.isWebPublic
    ? settings.create_web_public_stream_policy
    : opts.inviteOnly
      ? settings.create_private_stream_policy
      : settings.create_public_stream_policy;
  if (!passesPolicy(user, policy, settings, now)) throw badRequest('Insufficient permission');
}

export async function checkSubscribe(
  app: AppContext,
  caller: User,
  realm: Realm,
  specs: StreamSpec[],
  principals: User[] | null,
  opts: NewStreamOptions,
  authorizationErrorsFatal: boolean,
): Promise<SubscribeResult> {
  if (specs.length === 0) throw badRequest('Nothing to do. Specify at least one channel.');
  const names = specs.map((s) => ({ name: checkStreamName(s.name), description: s.description }));
  for (const s of names) {
    if (s.description.length > LIMITS.maxStreamDescriptionLength) {
      throw badRequest(`Stream description too long (limit: ${LIMITS.maxStreamDescriptionLength} characters).`);
    }
  }
  const targets = principals ?? [caller];
  const others = targets.some((t) => t.id !== caller.id);
  const settings = realmSettings(realm);
  if (opts.isDefaultStream && !isAdmin(caller)) throw adminRequired();
  if (opts.isDefaultStream && opts.inviteOnly) throw badRequest('Private streams cannot be made default.');
  return runAction(app, async (scope) => {
    if (others && !passesPolicy(caller, settings.invite_to_stream_policy, settings, scope.now)) {
      throw badRequest('Insufficient permission');
    }
    const result: SubscribeResult = { subscribed: {}, already_subscribed: {} };
    const unauthorized: string[] = [];
    for (const spec of names) {
      let stream = await streamByName(scope.tx, realm.id, spec.name);
      let created = false;
      if (!stream) {
        checkCreatePermission(caller, realm, opts, scope.now);
        stream = await createStreamFromOptions(scope, caller, realm, spec, opts);
        created = true;
      } else if (!(await maySubscribe(scope.tx, caller, stream, others))) {
        if (authorizationErrorsFatal) throw badRequest(`Unable to access stream (${stream.name}).`);
        unauthorized.push(stream.name);
        continue;
      }
      for (const target of targets) {
        const added = await doSubscribe(scope, realm, stream, target, created);
        const key = target.email;
        const bucket = added ? result.subscribed : result.already_subscribed;
        (bucket[key] ??= []).push(stream.name);
      }
    }
    if (!authorizationErrorsFatal) result.unauthorized = unauthorized;
    return result;
  });
}

async function maySubscribe(tx: Tx, caller: User, stream: Stream, others: boolean): Promise<boolean> {
  const sub = await subscription(tx, caller.id, stream.id);
  // Private streams: their subscribers may add people; administrators may too.
  if (stream.invite_only) return Boolean(sub?.active) || isAdmin(caller);
  return canSeeStream(caller, stream, sub) && (!others || !isGuest(caller));
}

async function createStreamFromOptions(scope: ActionScope, caller: User, realm: Realm, spec: StreamSpec, opts: NewStreamOptions): Promise<Stream> {
  const admins = await systemGroupByName(scope.tx, realm.id, 'role:administrators');
  let groupId = opts.canRemoveSubscribersGroupId ?? admins!.id;
  if (opts.canRemoveSubscribersGroupId !== undefined) {
    const group = await scope.tx.selectFrom('user_groups').select(['id', 'is_system_group']).where('realm_id', '=', realm.id).where('id', '=', groupId).executeTakeFirst();
    if (!group) throw badRequest('Invalid user group');
    groupId = group.id;
  }
  const stream = await doCreateStream(scope.tx, scope.now, {
    realmId: realm.id,
    name: spec.name,
    description: spec.description,
    inviteOnly: opts.inviteOnly,
    isWebPublic: opts.isWebPublic,
    historyPublicToSubscribers: opts.historyPublicToSubscribers ?? !opts.inviteOnly,
    streamPostPolicy: opts.streamPostPolicy,
    messageRetentionDays: opts.messageRetentionDays,
    canRemoveSubscribersGroupId: groupId,
    creatorId: caller.id,
  });
  if (!stream.invite_only) {
    scope.emit({ type: 'stream', op: 'create', streams: [presentStream(stream, null)] }, await usersWhoCanSeeStream(scope.tx, stream));
  }
  if (opts.isDefaultStream) await doAddDefaultStream(scope, realm, stream);
  return stream;
}

/** Subscribes one user; false when they already were. Sends the subscription events. */
export async function doSubscribe(scope: ActionScope, realm: Realm, stream: Stream, user: User, justCreated: boolean): Promise<boolean> {
  const existing = await subscription(scope.tx, user.id, stream.id);
  if (existing?.active) return false;
  if (existing) {
    await scope.tx.updateTable('subscriptions').set({ active: 1 }).where('id', '=', existing.id).execute();
  } else {
    await scope.tx.insertInto('subscriptions').values(newSubscriptionRow(user.id, stream.id, 0)).execute();
  }
  const sub = (await subscription(scope.tx, user.id, stream.id))!;
  const subscribers = (await subscriberIds(scope.tx, [stream.id])).get(stream.id) ?? [];
  if (stream.invite_only && justCreated) {
    // A new private stream becomes visible to its first subscribers (and admins) now.
    scope.emit({ type: 'stream', op: 'create', streams: [presentStream(stream, null)] }, [user.id]);
  }
  scope.emit({ type: 'subscription', op: 'add', subscriptions: [{ ...presentSubscription(stream, sub, null), subscribers }] }, [user.id]);
  const peers = (await usersWhoCanSeeStream(scope.tx, stream)).filter((id) => id !== user.id);
  scope.emit({ type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: [user.id] }, peers);
  void realm;
  return true;
}

export async function checkUnsubscribe(
  app: AppContext,
  caller: User,
  realm: Realm,
  streamNames: string[],
  principals: User[] | null,
): Promise<{ removed: string[]; not_removed: string[] }> {
  if (streamNames.length === 0) throw badRequest('Nothing to do. Specify at least one channel.');
  const targets = principals ?? [caller];
  const others = targets.some((t) => t.id !== caller.id);
  return runAction(app, async (scope) => {
    const removed: string[] = [];
    const notRemoved: string[] = [];
    for (const name of streamNames) {
      const stream = await streamByName(scope.tx, realm.id, name);
      const callerSub = stream ? await subscription(scope.tx, caller.id, stream.id) : undefined;
      if (!stream || !canSeeStream(caller, stream, callerSub)) {
        throw new ApiError(`Stream '${name}' does not exist`, 'STREAM_DOES_NOT_EXIST', 400, { stream: name });
      }
      if (others && !isAdmin(caller) && !(await userInGroup(scope.tx, caller, stream.can_remove_subscribers_group_id, scope.now))) {
        throw badRequest('Insufficient permission');
      }
      for (const target of targets) {
        const sub = await subscription(scope.tx, target.id, stream.id);
        if (!sub?.active) {
          notRemoved.push(stream.name);
          continue;
        }
        const audienceBefore = await usersWhoCanSeeStream(scope.tx, stream);
        await scope.tx.updateTable('subscriptions').set({ active: 0 }).where('id', '=', sub.id).execute();
        scope.emit({ type: 'subscription', op: 'remove', subscriptions: [{ name: stream.name, stream_id: stream.id }] }, [target.id]);
        scope.emit(
          { type: 'subscription', op: 'peer_remove', stream_ids: [stream.id], user_ids: [target.id] },
          audienceBefore.filter((id) => id !== target.id),
        );
        removed.push(stream.name);
      }
    }
    return { removed, not_removed: notRemoved };
  });
}
