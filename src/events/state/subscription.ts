// The `subscription` snapshot group (subscriptions, unsubscribed, never_subscribed) and the
// `stream` group (every stream the user can see).
import { allSubscriptionRows, recentMessageCounts, streamsInRealm, subscriberIds } from '../../db/queries/streams.ts';
import type { Stream, User } from '../../db/schema.ts';
import { canSeeStream } from '../../lib/access.ts';
import { parseSettings, USER_SETTING_DEFAULTS } from '../../lib/settings-registry.ts';
import { presentStream, presentSubscription, weeklyTraffic } from '../../presenters/stream.ts';
import type { SnapshotGroup } from './types.ts';

const WEEKS = 4 * 7 * 86400;

/** The user-level defaults a stream setting inherits when the subscription says null. */
export function notificationDefaults(user: User): Record<'desktop' | 'email' | 'push' | 'audible' | 'wildcard', boolean> {
  const s = parseSettings(USER_SETTING_DEFAULTS, user.settings);
  return {
    desktop: s.enable_stream_desktop_notifications,
    email: s.enable_stream_email_notifications,
    push: s.enable_stream_push_notifications,
    audible: s.enable_stream_audible_notifications,
    wildcard: s.wildcard_mentions_notify,
  };
}

const byName = (a: { name: string }, b: { name: string }): number => a.name.localeCompare(b.name);

export const subscriptionGroup: SnapshotGroup = async ({ app, realm, user, includeSubscribers, clientCapabilities }) => {
  if (!user) return { subscriptions: [], unsubscribed: [], never_subscribed: [] };
  const db = app.db.kysely;
  const streams = await streamsInRealm(db, realm.id);
  const subs = await allSubscriptionRows(db, user.id);
  const now = Math.floor(Date.now() / 1000);
  const counts = await recentMessageCounts(db, streams.map((s) => s.id), now - WEEKS);
  const subscribers = includeSubscribers ? await subscriberIds(db, streams.map((s) => s.id)) : null;
  const defaults = notificationDefaults(user);
  const inherit = clientCapabilities.notification_settings_null ? undefined : (w: keyof typeof defaults) => defaults[w];
  const withSubscribers = <T extends object>(stream: Stream, json: T): T =>
    subscribers ? { ...json, subscribers: subscribers.get(stream.id) ?? [] } : json;
  const subscribed = [];
  const unsubscribed = [];
  const never = [];
  for (const stream of streams) {
    const sub = subs.get(stream.id);
    const traffic = weeklyTraffic(stream, counts.get(stream.id), now);
    if (sub?.active) subscribed.push(withSubscribers(stream, presentSubscription(stream, sub, traffic, inherit)));
    else if (sub) unsubscribed.push(withSubscribers(stream, presentSubscription(stream, sub, traffic, inherit)));
    else if (!sub && canSeeStream(user, stream, sub)) never.push(withSubscribers(stream, presentStream(stream, traffic)));
  }
  return { subscriptions: subscribed.sort(byName), unsubscribed: unsubscribed.sort(byName), never_subscribed: never.sort(byName) };
};

export const streamGroup: SnapshotGroup = async ({ app, realm, user }) => {
  const db = app.db.kysely;
  const streams = await streamsInRealm(db, realm.id);
  const subs = user ? await allSubscriptionRows(db, user.id) : new Map();
  const now = Math.floor(Date.now() / 1000);
  const counts = await recentMessageCounts(db, streams.map((s) => s.id), now - WEEKS);
  const visible = streams.filter((s) => (user ? canSeeStream(user, s, subs.get(s.id)) : s.is_web_public === 1));
  return { streams: visible.map((s) => presentStream(s, weeklyTraffic(s, counts.get(s.id), now))).sort((a, b) => a.stream_id - b.stream_id) };
};
