// Subscription events: the user's own subscriptions added or removed, and peers joining or
// leaving streams the user can see.
// Snapshot group `subscription`: subscriptions, unsubscribed, never_subscribed.
import { allSubscriptionRows, recentMessageCounts, streamsInRealm, subscriberIds } from '../../db/queries/streams.ts';
import type { Stream, User } from '../../db/schema.ts';
import { canSeeStream } from '../../lib/access.ts';
import { parseSettings, USER_SETTING_DEFAULTS } from '../../lib/settings-registry.ts';
import { presentStream, presentSubscription, weeklyTraffic, type SubscriptionJson } from '../../presenters/stream.ts';
import { defineEventType, type ClientOptions, type SnapshotGroup, type State } from '../event-type.ts';
import type { BaseEvent } from '../types.ts';
import { recountUnread } from '../apply/unread.ts';

export type SubscriptionEvent =
  | {
      type: 'subscription';
      op: 'add';
      subscriptions: (SubscriptionJson & { subscribers?: number[] })[];
      /** Internal: the user's defaults, for clients that want booleans instead of null settings. */
      notification_defaults?: Record<NotificationSetting, boolean>;
    }
  | { type: 'subscription'; op: 'remove'; subscriptions: { name: string; stream_id: number }[] }
  | { type: 'subscription'; op: 'peer_add' | 'peer_remove'; stream_ids: number[]; user_ids: number[] }
  | { type: 'subscription'; op: 'update'; stream_id: number; property: string; value: unknown };

type NotificationSetting = 'desktop' | 'email' | 'push' | 'audible' | 'wildcard';
const SETTING_FIELDS: [NotificationSetting, keyof SubscriptionJson][] = [
  ['desktop', 'desktop_notifications'],
  ['email', 'email_notifications'],
  ['push', 'push_notifications'],
  ['audible', 'audible_notifications'],
  ['wildcard', 'wildcard_mentions_notify'],
];

type Sub = { stream_id: number; name: string; subscribers?: number[] } & Record<string, unknown>;

const byName = (a: Sub, b: Sub): number => a.name.localeCompare(b.name);

function lists(state: State): { subs: Sub[]; unsubscribed: Sub[]; never: Sub[] } | null {
  if (!Array.isArray(state.subscriptions)) return null;
  return {
    subs: state.subscriptions as Sub[],
    unsubscribed: (state.unsubscribed ?? []) as Sub[],
    never: (state.never_subscribed ?? []) as Sub[],
  };
}

function without(list: Sub[], streamId: number): Sub[] {
  return list.filter((s) => s.stream_id !== streamId);
}

function forClient(e: SubscriptionEvent, client: ClientOptions): BaseEvent[] {
  if (e.op !== 'add' || !e.notification_defaults) return [e];
  const { notification_defaults: defaults, ...rest } = e;
  if (client.capabilities.notification_settings_null) return [rest];
  const subscriptions = rest.subscriptions.map((sub) => {
    const out: Record<string, unknown> = { ...sub };
    for (const [setting, field] of SETTING_FIELDS) if (out[field] === null) out[field] = defaults[setting];
    return out as unknown as SubscriptionJson;
  });
  return [{ ...rest, subscriptions }];
}

function apply(state: State, event: BaseEvent, client: ClientOptions): void {
  const l = lists(state);
  if (!l) return;
  const e = event as SubscriptionEvent;
  if (e.op === 'add') {
    for (const sub of e.subscriptions) {
      const copy = { ...sub } as Sub;
      if (!client.includeSubscribers) delete copy.subscribers;
      l.subs = [...without(l.subs, sub.stream_id), copy];
      l.unsubscribed = without(l.unsubscribed, sub.stream_id);
      l.never = without(l.never, sub.stream_id);
    }
  } else if (e.op === 'update') {
    for (const sub of [...l.subs, ...l.unsubscribed]) if (sub.stream_id === e.stream_id) sub[e.property] = e.value;
  } else if (e.op === 'remove') {
    for (const { stream_id } of e.subscriptions) {
      const gone = l.subs.find((s) => s.stream_id === stream_id);
      l.subs = without(l.subs, stream_id);
      if (gone?.subscribers) gone.subscribers = gone.subscribers.filter((id) => id !== client.userId);
      if (gone) l.unsubscribed = [...without(l.unsubscribed, stream_id), gone];
    }
  } else {
    for (const list of [l.subs, l.unsubscribed, l.never]) {
      for (const sub of list) {
        if (!e.stream_ids.includes(sub.stream_id) || !sub.subscribers) continue;
        const set = new Set(sub.subscribers);
        for (const id of e.user_ids) {
          if (e.op === 'peer_add') set.add(id);
          else set.delete(id);
        }
        sub.subscribers = [...set].sort((a, b) => a - b);
      }
    }
  }
  state.subscriptions = l.subs.sort(byName);
  if ('unsubscribed' in state) state.unsubscribed = l.unsubscribed.sort(byName);
  if ('never_subscribed' in state) state.never_subscribed = l.never.sort(byName);
  recountUnread(state);
}

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
  const byJsonName = (a: { name: string }, b: { name: string }): number => a.name.localeCompare(b.name);
  return { subscriptions: subscribed.sort(byJsonName), unsubscribed: unsubscribed.sort(byJsonName), never_subscribed: never.sort(byJsonName) };
};


export const subscriptionEventType = defineEventType<SubscriptionEvent>({ type: 'subscription', forClient, snapshot: { subscription: subscriptionGroup }, apply });

