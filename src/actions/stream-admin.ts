// Stream administration: renaming, describing, privacy, posting policy, retention, the group
// that may unsubscribe others, default status; archiving.
import type { AppContext } from '../context.ts';
import type { Realm, Stream, User } from '../db/schema.ts';
import { defaultStreamGroupIdsOf, isDefaultStream, removeDefaultStream, removeStreamFromDefaults } from '../db/queries/default-streams.ts';
import { groupById } from '../db/queries/groups.ts';
import { deactivateSubscriptions, markStreamMessagesRead, streamNameTaken, updateStream } from '../db/queries/stream-admin.ts';
import { streamById, subscription } from '../db/queries/streams.ts';
import { lockRealm, saveRealmSettingOverrides } from '../db/queries/realm-admin.ts';
import { activeUserIdsInRealm } from '../db/queries/users.ts';
import { usersWhoCanSeeStream } from '../lib/access.ts';
import { may, requireAdmin, requireOwner, STREAM_POST_POLICY } from '../lib/permissions.ts';
import { badRequest } from '../lib/errors.ts';
import { LIMITS } from '../lib/limits.ts';
import { plainContext, renderMarkdown } from '../lib/markdown/index.ts';
import { realmSettings, realmUrl } from '../lib/realm.ts';
import { realmSettingEvent } from '../lib/realm-settings.ts';
import { REALM_SETTING_DEFAULTS, setOverride, storedOverrides } from '../lib/settings-registry.ts';
import { checkStreamName } from '../lib/validate.ts';
import { presentStream } from '../presenters/stream.ts';
import { runAction, type ActionScope } from './action.ts';
import { doAddDefaultStream, emitDefaultStreamGroups, emitDefaultStreams } from './default-streams.ts';
import { accessPolicyName, sendStreamNotices, streamNotice, type StreamNotice } from './messages/notices.ts';

export interface StreamChanges {
  newName?: string | undefined;
  description?: string | undefined;
  isPrivate?: boolean | undefined;
  isWebPublic?: boolean | undefined;
  historyPublicToSubscribers?: boolean | undefined;
  streamPostPolicy?: number | undefined;
  /** null: the realm's setting; -1: forever. */
  messageRetentionDays?: number | null | undefined;
  canRemoveSubscribersGroupId?: number | undefined;
  isDefaultStream?: boolean | undefined;
}

export function renderStreamDescription(app: AppContext, realm: Realm, description: string): string {
  return renderMarkdown(description, plainContext(realmUrl(app.config, realm))).html;
}

/** Sends a stream update event to everyone who can see the stream. */
async function emitUpdate(scope: ActionScope, stream: Stream, property: string, value: unknown, extra: Record<string, unknown> = {}): Promise<void> {
  scope.emit({ type: 'stream', op: 'update', stream_id: stream.id, name: stream.name, property, value, ...extra }, await usersWhoCanSeeStream(scope.tx, stream));
}

function onlyNameOrDescription(c: StreamChanges): boolean {
  return [c.isPrivate, c.isWebPublic, c.historyPublicToSubscribers, c.streamPostPolicy, c.messageRetentionDays, c.canRemoveSubscribersGroupId, c.isDefaultStream].every(
    (v) => v === undefined,
  );
}

export async function checkUpdateStream(app: AppContext, caller: User, realm: Realm, streamId: number, c: StreamChanges): Promise<void> {
  requireAdmin(caller);
  if (c.messageRetentionDays !== undefined) requireOwner(caller);
  const newName = c.newName === undefined ? undefined : checkStreamName(c.newName);
  if (c.description !== undefined && c.description.length > LIMITS.maxStreamDescriptionLength) {
    throw badRequest(`Stream description too long (limit: ${LIMITS.maxStreamDescriptionLength} characters).`);
  }
  const description = c.description?.replace(/\s*\n\s*/g, ' ').trim();
  if (c.streamPostPolicy !== undefined && !(Object.values(STREAM_POST_POLICY) as number[]).includes(c.streamPostPolicy)) throw badRequest('Invalid stream_post_policy');
  const settings = realmSettings(realm);
  const notices: StreamNotice[] = [];
  await runAction(app, async (scope) => {
    notices.length = 0;
    let stream = await streamById(scope.tx, realm.id, streamId);
    const sub = stream && (await subscription(scope.tx, caller.id, stream.id));
    // Administrators rename and describe any stream, but change a private one's other settings only as subscribers.
    if (!stream || (stream.invite_only && !sub?.active && !onlyNameOrDescription(c))) throw badRequest('Invalid stream ID');

    if (newName !== undefined && newName !== stream.name) {
      if (await streamNameTaken(scope.tx, realm.id, newName, stream.id)) throw badRequest(`Stream name '${newName}' is already taken.`);
      await updateStream(scope.tx, stream.id, { name: newName });
      await emitUpdate(scope, stream, 'name', newName);
      const oldName = stream.name;
      stream = { ...stream, name: newName };
      notices.push(streamNotice.renamed(caller, stream, oldName));
    }
    if (description !== undefined && description !== stream.description) {
      const rendered = renderStreamDescription(app, realm, description);
      await updateStream(scope.tx, stream.id, { description, rendered_description: rendered });
      const oldDescription = stream.description;
      stream = { ...stream, description, rendered_description: rendered };
      await emitUpdate(scope, stream, 'description', description, { rendered_description: rendered });
      notices.push(streamNotice.described(caller, stream, oldDescription));
    }
    if (c.isPrivate !== undefined || c.isWebPublic !== undefined || c.historyPublicToSubscribers !== undefined) {
      const before = stream;
      stream = await changePrivacy(scope, caller, realm, stream, c, settings);
      if (stream !== before) notices.push(streamNotice.access(caller, stream, accessPolicyName(before)));
    }
    if (c.streamPostPolicy !== undefined && c.streamPostPolicy !== stream.stream_post_policy) {
      await updateStream(scope.tx, stream.id, { stream_post_policy: c.streamPostPolicy });
      const oldPolicy = stream.stream_post_policy;
      stream = { ...stream, stream_post_policy: c.streamPostPolicy };
      notices.push(streamNotice.posting(caller, stream, oldPolicy));
      await emitUpdate(scope, stream, 'stream_post_policy', c.streamPostPolicy);
      // Older clients know only the announcement-only flag.
      await emitUpdate(scope, stream, 'is_announcement_only', c.streamPostPolicy === 2);
    }
    if (c.messageRetentionDays !== undefined && c.messageRetentionDays !== stream.message_retention_days) {
      await updateStream(scope.tx, stream.id, { message_retention_days: c.messageRetentionDays });
      stream = { ...stream, message_retention_days: c.messageRetentionDays };
      await emitUpdate(scope, stream, 'message_retention_days', c.messageRetentionDays);
    }
    if (c.canRemoveSubscribersGroupId !== undefined && c.canRemoveSubscribersGroupId !== stream.can_remove_subscribers_group_id) {
      const group = await groupById(scope.tx, realm.id, c.canRemoveSubscribersGroupId);
      if (!group || group.deactivated || group.name === 'role:internet') throw badRequest('Invalid user group');
      await updateStream(scope.tx, stream.id, { can_remove_subscribers_group_id: group.id });
      stream = { ...stream, can_remove_subscribers_group_id: group.id };
      await emitUpdate(scope, stream, 'can_remove_subscribers_group_id', group.id);
    }
    if (c.isDefaultStream === true) await doAddDefaultStream(scope, realm, stream);
    if (c.isDefaultStream === false && (await isDefaultStream(scope.tx, realm.id, stream.id))) {
      await removeDefaultStream(scope.tx, realm.id, stream.id);
      await emitDefaultStreams(scope, realm.id);
    }
  });
  // Each notice is a message of its own once the change is committed, as the topic-move notices are.
  await sendStreamNotices(app, realm, notices);
}

async function changePrivacy(
  scope: ActionScope,
  caller: User,
  realm: Realm,
  stream: Stream,
  c: StreamChanges,
  settings: ReturnType<typeof realmSettings>,
): Promise<Stream> {
  let inviteOnly = c.isPrivate ?? stream.invite_only === 1;
  let webPublic = c.isWebPublic ?? (c.isPrivate ? false : stream.is_web_public === 1);
  if (webPublic && c.isWebPublic) {
    if (!settings.enable_spectator_access) throw badRequest('Web-public streams are not enabled.');
    if (!may(caller, 'createWebPublicStream', settings, scope.now)) throw badRequest('Insufficient permission');
    if (c.isPrivate) throw badRequest('Invalid parameters');
    inviteOnly = false;
  }
  if (inviteOnly) webPublic = false;
  if (inviteOnly && (await isDefaultStream(scope.tx, realm.id, stream.id))) throw badRequest('A default stream cannot be private.');
  // Public streams always share their history; private ones keep theirs unless told.
  let history = c.historyPublicToSubscribers ?? (c.isPrivate === true && stream.invite_only !== 1 ? false : stream.history_public_to_subscribers === 1);
  if (!inviteOnly) history = true;
  if (inviteOnly === (stream.invite_only === 1) && webPublic === (stream.is_web_public === 1) && history === (stream.history_public_to_subscribers === 1)) {
    return stream;
  }
  const before = new Set(await usersWhoCanSeeStream(scope.tx, stream));
  const values = { invite_only: inviteOnly ? 1 : 0, is_web_public: webPublic ? 1 : 0, history_public_to_subscribers: history ? 1 : 0 };
  await updateStream(scope.tx, stream.id, values);
  const next: Stream = { ...stream, ...values };
  const after = await usersWhoCanSeeStream(scope.tx, next);
  const afterSet = new Set(after);
  const gained = after.filter((id) => !before.has(id));
  const lost = [...before].filter((id) => !afterSet.has(id));
  scope.emit({ type: 'stream', op: 'create', streams: [presentStream(next, null)] }, gained);
  scope.emit({ type: 'stream', op: 'delete', streams: [presentStream(next, null)], stream_ids: [next.id] }, lost);
  scope.emit(
    {
      type: 'stream',
      op: 'update',
      stream_id: next.id,
      name: next.name,
      property: 'invite_only',
      value: inviteOnly,
      history_public_to_subscribers: history,
      is_web_public: webPublic,
    },
    after.filter((id) => before.has(id)),
  );
  return next;
}

/** Archives the stream: it disappears, its name is freed, its subscriptions end. */
export async function checkArchiveStream(app: AppContext, caller: User, realm: Realm, streamId: number): Promise<void> {
  requireAdmin(caller);
  await runAction(app, async (scope) => {
    const stream = await streamById(scope.tx, realm.id, streamId);
    if (!stream) throw badRequest('Invalid stream ID');
    const audience = await usersWhoCanSeeStream(scope.tx, stream);
    let prefix = '!';
    let archivedName = `${prefix}DEACTIVATED:${stream.name}`.slice(0, LIMITS.maxStreamNameLength);
    while (await streamNameTaken(scope.tx, realm.id, archivedName, stream.id)) {
      prefix += '!';
      archivedName = `${prefix}DEACTIVATED:${stream.name}`.slice(0, LIMITS.maxStreamNameLength);
    }
    const wasDefault = await isDefaultStream(scope.tx, realm.id, stream.id);
    const inGroups = await defaultStreamGroupIdsOf(scope.tx, stream.id);
    await deactivateSubscriptions(scope.tx, stream.id);
    await updateStream(scope.tx, stream.id, { deactivated: 1, name: archivedName });
    await markStreamMessagesRead(scope.tx, stream.id);
    await removeStreamFromDefaults(scope.tx, realm.id, stream.id);
    if (wasDefault) await emitDefaultStreams(scope, realm.id);
    if (inGroups.length > 0) await emitDefaultStreamGroups(scope, realm.id);
    scope.emit({ type: 'stream', op: 'delete', streams: [presentStream(stream, null)], stream_ids: [stream.id] }, audience);
    await clearNotificationStreams(scope, app, realm.id, stream.id);
  });
}

/** The realm's announcement streams stop pointing at an archived stream. */
async function clearNotificationStreams(scope: ActionScope, app: AppContext, realmId: number, streamId: number): Promise<void> {
  const realm = await lockRealm(scope.tx, realmId, app.db.dialect);
  if (!realm) return;
  const settings = realmSettings(realm);
  const overrides = storedOverrides(realm.settings);
  const recipients = await activeUserIdsInRealm(scope.tx, realmId);
  let changed = false;
  for (const name of ['notifications_stream_id', 'signup_notifications_stream_id'] as const) {
    if (settings[name] !== streamId) continue;
    setOverride(overrides, REALM_SETTING_DEFAULTS, name, -1);
    changed = true;
    scope.emit(realmSettingEvent(name, -1), recipients);
  }
  if (changed) await saveRealmSettingOverrides(scope.tx, realmId, JSON.stringify(overrides));
}
