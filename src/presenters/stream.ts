// The Stream and Subscription objects of the API.
import type { Stream, Subscription } from '../db/schema.ts';
import { STREAM_POST_POLICY } from '../lib/permissions.ts';

export interface StreamJson {
  stream_id: number;
  name: string;
  description: string;
  rendered_description: string;
  date_created: number;
  creator_id: number | null;
  invite_only: boolean;
  is_web_public: boolean;
  stream_post_policy: number;
  is_announcement_only: boolean;
  message_retention_days: number | null;
  history_public_to_subscribers: boolean;
  first_message_id: number | null;
  stream_weekly_traffic: number | null;
  can_remove_subscribers_group_id: number;
  can_remove_subscribers_group: number;
  // Fields of the newer reference that its clients require; fixed values at our feature level.
  can_subscribe_group: { direct_members: number[]; direct_subgroups: number[] };
  is_archived: boolean;
  is_recently_active: boolean;
}

const WEEK = 7 * 24 * 3600;

/** Weekly traffic is an estimate: null while the stream is younger than a week. */
export function weeklyTraffic(stream: Stream, recentCount: number | undefined, now: number): number | null {
  if (now - stream.date_created < WEEK) return null;
  return Math.round((recentCount ?? 0) / 4);
}

export function presentStream(stream: Stream, traffic: number | null): StreamJson {
  return {
    stream_id: stream.id,
    name: stream.name,
    description: stream.description,
    rendered_description: stream.rendered_description,
    date_created: stream.date_created,
    creator_id: stream.creator_id,
    invite_only: stream.invite_only === 1,
    is_web_public: stream.is_web_public === 1,
    stream_post_policy: stream.stream_post_policy,
    is_announcement_only: stream.stream_post_policy === STREAM_POST_POLICY.ADMINS,
    message_retention_days: stream.message_retention_days,
    history_public_to_subscribers: stream.history_public_to_subscribers === 1,
    first_message_id: stream.first_message_id,
    stream_weekly_traffic: traffic,
    can_remove_subscribers_group_id: stream.can_remove_subscribers_group_id,
    can_remove_subscribers_group: stream.can_remove_subscribers_group_id,
    can_subscribe_group: { direct_members: [], direct_subgroups: [] },
    is_archived: stream.deactivated === 1,
    is_recently_active: traffic === null || traffic > 0,
  };
}

export interface SubscriptionJson extends StreamJson {
  color: string;
  is_muted: boolean;
  in_home_view: boolean;
  pin_to_top: boolean;
  desktop_notifications: boolean | null;
  email_notifications: boolean | null;
  push_notifications: boolean | null;
  audible_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
  subscribers?: number[];
}

const nullableFlag = (v: number | null): boolean | null => (v === null ? null : v === 1);

/**
 * `inherit` supplies the user-level defaults for clients without the
 * `notification_settings_null` capability, which must see booleans.
 */
export function presentSubscription(
  stream: Stream,
  sub: Subscription,
  traffic: number | null,
  inherit?: (setting: 'desktop' | 'email' | 'push' | 'audible' | 'wildcard') => boolean,
): SubscriptionJson {
  const resolve = (v: number | null, which: 'desktop' | 'email' | 'push' | 'audible' | 'wildcard'): boolean | null =>
    v === null && inherit ? inherit(which) : nullableFlag(v);
  return {
    ...presentStream(stream, traffic),
    color: sub.color,
    is_muted: sub.is_muted === 1,
    in_home_view: sub.is_muted !== 1,
    pin_to_top: sub.pin_to_top === 1,
    desktop_notifications: resolve(sub.desktop_notifications, 'desktop'),
    email_notifications: resolve(sub.email_notifications, 'email'),
    push_notifications: resolve(sub.push_notifications, 'push'),
    audible_notifications: resolve(sub.audible_notifications, 'audible'),
    wildcard_mentions_notify: resolve(sub.wildcard_mentions_notify, 'wildcard'),
  };
}
