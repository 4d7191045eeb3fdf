// Subscription events: the user's own subscriptions added or removed, and peers joining or
// leaving streams the user can see.
import type { SubscriptionJson } from '../../presenters/stream.ts';
import type { ClientOptions, EventFamily, State } from '../family.ts';
import type { BaseEvent } from '../types.ts';
import { recountUnread } from './unread.ts';

export type SubscriptionEvent =
  | (BaseEvent & {
      type: 'subscription';
      op: 'add';
      subscriptions: SubscriptionJson[];
      /** Internal: the user's defaults, for clients that want booleans instead of null settings. */
      notification_defaults?: Record<NotificationSetting, boolean>;
    })
  | (BaseEvent & { type: 'subscription'; op: 'remove'; subscriptions: { name: string; stream_id: number }[] })
  | (BaseEvent & { type: 'subscription'; op: 'peer_add' | 'peer_remove'; stream_ids: number[]; user_ids: number[] })
  | (BaseEvent & { type: 'subscription'; op: 'update'; stream_id: number; property: string; value: unknown });

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

function forClient(event: BaseEvent, client: ClientOptions): BaseEvent[] {
  const e = event as SubscriptionEvent;
  if (e.op !== 'add' || !e.notification_defaults) return [event];
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

export const subscriptionFamily: EventFamily = { forClient, apply };
