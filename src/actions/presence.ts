// Presence updates and typing notifications. Neither is stored history: presence keeps one row
// per user, typing notifications are only events.
import type { AppContext } from '../context.ts';
import type { Realm, Stream, User } from '../db/schema.ts';
import { presenceOf, savePresence, type PresenceRow } from '../db/queries/presence.ts';
import { subscriberIds } from '../db/queries/streams.ts';
import { activeUserIdsInRealm, lockUser, usersByIds } from '../db/queries/users.ts';
import { badRequest } from '../lib/errors.ts';
import { PRESENCE, presenceEvent } from '../lib/presence.ts';
import { realmSettings } from '../lib/realm.ts';
import { userSettings } from '../lib/user-settings.ts';
import { runAction } from './action.ts';

/** Records that the user's client is connected (and active); tells the realm when that is news. */
export async function doUpdatePresence(app: AppContext, user: User, realm: Realm, status: 'active' | 'idle'): Promise<void> {
  if (realmSettings(realm).presence_disabled || user.is_bot) return;
  await runAction(app, async (scope) => {
    await lockUser(scope.tx, user.realm_id, user.id, scope.dialect);
    const old = await presenceOf(scope.tx, user.id);
    const row: PresenceRow = {
      user_id: user.id,
      realm_id: user.realm_id,
      last_connected_time: scope.now,
      last_active_time: status === 'active' ? scope.now : (old?.last_active_time ?? null),
    };
    await savePresence(scope.tx, row, old !== undefined);
    const wasOffline = !old || scope.now - old.last_connected_time > PRESENCE.offlineThresholdSeconds;
    const becameActive = status === 'active' && (old?.last_active_time === null || old === undefined || scope.now - old.last_active_time! > PRESENCE.legacyActiveOffsetSeconds);
    if ((wasOffline || becameActive) && userSettings(user).presence_enabled) {
      scope.emit(presenceEvent(row, user.email, scope.now), await activeUserIdsInRealm(scope.tx, user.realm_id));
    }
  });
}

type TypingTarget = { kind: 'direct'; userIds: number[] } | { kind: 'stream'; stream: Stream; topic: string };

/** Sends typing start/stop to the conversation's other participants (and the sender's clients). */
export async function checkSendTyping(app: AppContext, sender: User, op: 'start' | 'stop', target: TypingTarget): Promise<void> {
  const settings = userSettings(sender);
  if (target.kind === 'direct' && !settings.send_private_typing_notifications) {
    throw badRequest('User has disabled typing notifications for direct messages');
  }
  if (target.kind === 'stream' && !settings.send_stream_typing_notifications) {
    throw badRequest('User has disabled typing notifications for stream messages');
  }
  const me = { user_id: sender.id, email: sender.email };
  await runAction(app, async (scope) => {
    if (target.kind === 'direct') {
      const ids = [...new Set([...target.userIds, sender.id])];
      const users = await usersByIds(scope.tx, sender.realm_id, ids);
      const found = new Set(users.filter((u) => u.is_active).map((u) => u.id));
      const bad = ids.find((id) => !found.has(id));
      if (bad !== undefined) throw badRequest(`Invalid user ID ${bad}`);
      const recipients = users.sort((a, b) => a.id - b.id).map((u) => ({ user_id: u.id, email: u.email }));
      scope.emit({ type: 'typing', op, message_type: 'private', sender: me, recipients }, recipients.map((r) => r.user_id));
      return;
    }
    const subscribers = (await subscriberIds(scope.tx, [target.stream.id])).get(target.stream.id) ?? [];
    scope.emit({ type: 'typing', op, message_type: 'stream', sender: me, stream_id: target.stream.id, topic: target.topic }, subscribers);
  });
}
