// Subscribing to streams (creating the ones that do not exist yet) and unsubscribing.
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/database.ts';
import type { Realm, Stream, User } from '../db/schema.ts';
import { insertSubscription, lockStream, streamById, streamByName, subscriberIds, subscription } from '../db/queries/streams.ts';
import { lockRealm } from '../db/queries/realm-admin.ts';
import { groupKindById, systemGroupByName } from '../db/queries/groups.ts';
import { newSubscriptionRow, updateSubscription } from '../db/queries/subscriptions.ts';
import { canSeeStream, usersWhoCanSeeStream } from '../lib/access.ts';
import { badRequest, streamDoesNotExist } from '../lib/errors.ts';
import { userInGroup } from '../lib/groups.ts';
import { LIMITS } from '../lib/limits.ts';
import { realmSettings } from '../lib/realm.ts';
import { isAdmin, isGuest, may, requireAdmin } from '../lib/permissions.ts';
import { checkStreamName } from '../lib/validate.ts';
import { presentStream, presentSubscription } from '../presenters/stream.ts';
import { runAction, type ActionScope } from './action.ts';
import { notificationDefaults } from '../events/event-types/subscription.ts';
import { doCreateStream } from './streams.ts';
import { doAddDefaultStream } from './default-streams.ts';
import { sendStreamNotices, streamNotice } from './messages/notices.ts';

export interface StreamSpec {
  name: string;
  description: string;
  /** The caller's colour for the stream, when they are newly subscribed (PATCH form). */
  color?: string;
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
  /** Announces the streams this request creates in the realm's new-stream announcements stream. */
  announce?: boolean;
}

export interface SubscribeResult {
  subscribed: Record<string, string[]>;
  already_subscribed: Record<string, string[]>;
  unauthorized?: string[];
}

function checkCreatePermission(user: User, realm: Realm, opts: NewStreamOptions, now: number): void {
  const settings = realmSettings(realm);
  const rule = opts.isWebPublic ? 'createWebPublicStream' : opts.inviteOnly ? 'createPrivateStream' : 'createPublicStream';
  if (!may(user, rule, settings, now)) throw badRequest('Insufficient permission');
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
  const checked = checkStreamSpecs(specs);
  if (opts.isDefaultStream) requireAdmin(caller);
  if (opts.isDefaultStream && opts.inviteOnly) throw badRequest('Private streams cannot be made default.');
  const created: Stream[] = [];
  const result = await runAction(app, (scope) => {
    created.length = 0;
    return subscribeInScope(scope, caller, realm, checked, principals, opts, authorizationErrorsFatal, created);
  });
  if (opts.announce) await announceNewStreams(app, realm, caller, created);
  return result;
}

/** The notification bot's announcement of new streams, when the realm names a stream for it. */
async function announceNewStreams(app: AppContext, realm: Realm, caller: User, created: Stream[]): Promise<void> {
  const streamId = realmSettings(realm).notifications_stream_id;
  if (created.length === 0 || streamId === null || streamId < 0) return;
  const announcements = await streamById(app.db.kysely, realm.id, streamId);
  if (announcements) await sendStreamNotices(app, realm, [streamNotice.created(caller, announcements, created)]);
}

/** PATCH /users/me/subscriptions: subscribe the caller to `add` and unsubscribe them from `remove`, in one transaction. */
export async function checkUpdateSubscriptions(
  app: AppContext,
  caller: User,
  realm: Realm,
  add: StreamSpec[],
  remove: string[],
  opts: NewStreamOptions,
): Promise<SubscribeResult & { removed: string[]; not_removed: string[] }> {
  if (add.length === 0 && remove.length === 0) throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
  const checked = add.length > 0 ? checkStreamSpecs(add) : [];
  return runAction(app, async (scope) => {
    const added: SubscribeResult = checked.length > 0 ? await subscribeInScope(scope, caller, realm, checked, null, opts, true) : { subscribed: {}, already_subscribed: {} };
    const removed = remove.length > 0 ? await unsubscribeInScope(scope, caller, realm, remove, null) : { removed: [], not_removed: [] };
    return { subscribed: added.subscribed, already_subscribed: added.already_subscribed, ...removed };
  });
}

function checkStreamSpecs(specs: StreamSpec[]): StreamSpec[] {
  if (specs.length === 0) throw badRequest('Nothing to do. Specify at least one channel.');
  const names = specs.map((s) => ({ ...s, name: checkStreamName(s.name) }));
  for (const s of names) {
    if (s.description.length > LIMITS.maxStreamDescriptionLength) {
      throw badRequest(`Stream description too long (limit: ${LIMITS.maxStreamDescriptionLength} characters).`);
    }
    if (s.color !== undefined && !COLOR_RE.test(s.color)) throw badRequest('color is not a valid hex color code');
  }
  return names;
}

async function subscribeInScope(
  scope: ActionScope,
  caller: User,
  realm: Realm,
  names: StreamSpec[],
  principals: User[] | null,
  opts: NewStreamOptions,
  authorizationErrorsFatal: boolean,
  created: Stream[] = [],
): Promise<SubscribeResult> {
  const targets = dedupeUsers(principals ?? [caller]);
  const others = targets.some((t) => t.id !== caller.id);
  const settings = realmSettings(realm);
  if (others && !may(caller, 'subscribeOthers', settings, scope.now)) {
    throw badRequest('Insufficient permission');
  }
  const result: SubscribeResult = { subscribed: {}, already_subscribed: {} };
  const unauthorized: string[] = [];
  for (const spec of names) {
    let stream = await streamByName(scope.tx, realm.id, spec.name);
    if (!stream) {
      // Streams are created one at a time per realm: a concurrent request may just have made it.
      await lockRealm(scope.tx, realm.id, scope.dialect);
      stream = await streamByName(scope.tx, realm.id, spec.name);
    }
    if (!stream) {
      checkCreatePermission(caller, realm, opts, scope.now);
      stream = await createStreamFromOptions(scope, caller, realm, spec, opts);
      created.push(stream);
    } else if (!(await mayJoin(scope.tx, caller, stream))) {
      if (authorizationErrorsFatal) throw badRequest(`Unable to access stream (${stream.name}).`);
      unauthorized.push(stream.name);
      continue;
    }
    const colors = spec.color === undefined ? undefined : new Map([[caller.id, spec.color]]);
    const added = new Set((await doSubscribeUsers(scope, stream, targets, colors)).map((u) => u.id));
    for (const target of targets) {
      const bucket = added.has(target.id) ? result.subscribed : result.already_subscribed;
      (bucket[target.email] ??= []).push(stream.name);
    }
  }
  if (!authorizationErrorsFatal) result.unauthorized = unauthorized;
  return result;
}

const COLOR_RE = /^#[0-9a-fA-F]{6}$/;

function dedupeUsers(users: User[]): User[] {
  const seen = new Set<number>();
  return users.filter((u) => !seen.has(u.id) && (seen.add(u.id), true));
}

/**
 * Whether the caller may subscribe themselves or others to an existing stream: their own
 * streams, web-public streams, and public streams for non-guests. At our feature level an
 * administrator must also be subscribed to a private stream to add people to it.
 */
async function mayJoin(tx: Tx, caller: User, stream: Stream): Promise<boolean> {
  const sub = await subscription(tx, caller.id, stream.id);
  if (sub?.active) return true;
  if (stream.is_web_public) return true;
  return !stream.invite_only && !isGuest(caller);
}

async function createStreamFromOptions(scope: ActionScope, caller: User, realm: Realm, spec: StreamSpec, opts: NewStreamOptions): Promise<Stream> {
  const admins = await systemGroupByName(scope.tx, realm.id, 'role:administrators');
  let groupId = opts.canRemoveSubscribersGroupId ?? admins!.id;
  if (opts.canRemoveSubscribersGroupId !== undefined) {
    const group = await groupKindById(scope.tx, realm.id, groupId);
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
  // Everyone who may see the new stream learns of it: for a private stream, the administrators
  // now, and its subscribers as they are added.
  scope.emit({ type: 'stream', op: 'create', streams: [presentStream(stream, null)] }, await usersWhoCanSeeStream(scope.tx, stream));
  if (opts.isDefaultStream) await doAddDefaultStream(scope, realm, stream);
  return stream;
}

/**
 * Subscribes users to one stream and returns those newly subscribed. Each gets the stream (if
 * they could not see it before) and their subscription; everyone else who may see the stream
 * gets one `peer_add` naming all of them.
 */
export async function doSubscribeUsers(scope: ActionScope, stream: Stream, users: User[], colors?: Map<number, string>): Promise<User[]> {
  const added: { user: User; wasVisible: boolean }[] = [];
  await lockStream(scope.tx, stream.id, scope.dialect);
  for (const user of users) {
    const existing = await subscription(scope.tx, user.id, stream.id);
    if (existing?.active) continue;
    const wasVisible = canSeeStream(user, stream, existing);
    const color = colors?.get(user.id);
    if (existing) {
      await updateSubscription(scope.tx, existing.id, color ? { active: 1, color } : { active: 1 });
    } else {
      const row = newSubscriptionRow(user.id, stream.id, 0);
      await insertSubscription(scope.tx, color ? { ...row, color } : row);
    }
    added.push({ user, wasVisible });
  }
  if (added.length === 0) return [];
  const subscribers = (await subscriberIds(scope.tx, [stream.id])).get(stream.id) ?? [];
  for (const { user, wasVisible } of added) {
    if (!wasVisible) scope.emit({ type: 'stream', op: 'create', streams: [presentStream(stream, null)] }, [user.id]);
    const sub = (await subscription(scope.tx, user.id, stream.id))!;
    scope.emit(
      { type: 'subscription', op: 'add', subscriptions: [{ ...presentSubscription(stream, sub, null), subscribers }], notification_defaults: notificationDefaults(user) },
      [user.id],
    );
  }
  const addedIds = added.map((a) => a.user.id).sort((a, b) => a - b);
  const peers = (await usersWhoCanSeeStream(scope.tx, stream)).filter((id) => !addedIds.includes(id));
  scope.emit({ type: 'subscription', op: 'peer_add', stream_ids: [stream.id], user_ids: addedIds }, peers);
  return added.map((a) => a.user);
}

/** The caller acts on their own behalf for themselves and for bots they own. */
const controls = (caller: User, target: User): boolean => target.id === caller.id || (target.is_bot === 1 && target.bot_owner_id === caller.id);

/**
 * Whether the caller may unsubscribe other users: they need basic access to the stream (or be
 * an administrator) and be an administrator or in the stream's can_remove_subscribers_group.
 */
async function mayRemoveOthers(tx: Tx, caller: User, stream: Stream, now: number): Promise<boolean> {
  const sub = await subscription(tx, caller.id, stream.id);
  if (isAdmin(caller)) return true;
  const basicAccess = Boolean(sub?.active) || stream.is_web_public === 1 || (!stream.invite_only && !isGuest(caller));
  return basicAccess && (await userInGroup(tx, caller, stream.can_remove_subscribers_group_id, now));
}

export async function checkUnsubscribe(
  app: AppContext,
  caller: User,
  realm: Realm,
  streamNames: string[],
  principals: User[] | null,
): Promise<{ removed: string[]; not_removed: string[] }> {
  if (streamNames.length === 0) throw badRequest('Nothing to do. Specify at least one channel.');
  return runAction(app, (scope) => unsubscribeInScope(scope, caller, realm, streamNames, principals));
}

async function unsubscribeInScope(
  scope: ActionScope,
  caller: User,
  realm: Realm,
  streamNames: string[],
  principals: User[] | null,
): Promise<{ removed: string[]; not_removed: string[] }> {
  const targets = dedupeUsers(principals ?? [caller]);
  const others = targets.some((t) => !controls(caller, t));
  const streams: Stream[] = [];
  for (const name of streamNames) {
    const stream = await streamByName(scope.tx, realm.id, name);
    const callerSub = stream ? await subscription(scope.tx, caller.id, stream.id) : undefined;
    if (!stream || !canSeeStream(caller, stream, callerSub)) {
      throw streamDoesNotExist(name);
    }
    if (others && !(await mayRemoveOthers(scope.tx, caller, stream, scope.now))) throw badRequest('Insufficient permission');
    streams.push(stream);
  }
  const removed: string[] = [];
  const notRemoved: string[] = [];
  for (const stream of streams) {
    await lockStream(scope.tx, stream.id, scope.dialect);
    const gone: User[] = [];
    for (const target of targets) {
      const sub = await subscription(scope.tx, target.id, stream.id);
      if (!sub?.active) {
        notRemoved.push(stream.name);
        continue;
      }
      await updateSubscription(scope.tx, sub.id, { active: 0 });
      gone.push(target);
      removed.push(stream.name);
    }
    if (gone.length > 0) await sendRemoveEvents(scope, stream, gone);
  }
  return { removed, not_removed: notRemoved };
}

/** After users left a stream: their `remove`, one `peer_remove` to the rest, and the stream itself disappears for those who can no longer see it. */
async function sendRemoveEvents(scope: ActionScope, stream: Stream, gone: User[]): Promise<void> {
  const goneIds = gone.map((u) => u.id).sort((a, b) => a - b);
  scope.emit({ type: 'subscription', op: 'remove', subscriptions: [{ name: stream.name, stream_id: stream.id }] }, goneIds);
  const audience = await usersWhoCanSeeStream(scope.tx, stream);
  scope.emit({ type: 'subscription', op: 'peer_remove', stream_ids: [stream.id], user_ids: goneIds }, audience.filter((id) => !goneIds.includes(id)));
  const lostSight = goneIds.filter((id) => !audience.includes(id));
  scope.emit({ type: 'stream', op: 'delete', streams: [presentStream(stream, null)], stream_ids: [stream.id] }, lostSight);
}
