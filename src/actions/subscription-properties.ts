// A user's personal settings of their subscriptions: colour, pinning, muting, notifications.
import type { AppContext } from '../context.ts';
import type { User } from '../db/schema.ts';
import { updateSubscription } from '../db/queries/subscriptions.ts';
import { streamById, subscription } from '../db/queries/streams.ts';
import { canSeeStream } from '../lib/access.ts';
import { badRequest } from '../lib/errors.ts';
import type { SubscriptionEvent } from '../events/event-types/subscription.ts';
import { runAction } from './action.ts';

export interface PropertyChange {
  stream_id: number;
  property: string;
  value: unknown;
}

type Column = 'color' | 'is_muted' | 'pin_to_top' | 'desktop_notifications' | 'email_notifications' | 'push_notifications' | 'audible_notifications' | 'wildcard_mentions_notify';

/** The notification settings, where null means "inherit the user-level default". */
const NULLABLE = new Set<string>(['desktop_notifications', 'email_notifications', 'push_notifications', 'audible_notifications', 'wildcard_mentions_notify']);
const BOOLEAN = new Set<string>(['is_muted', 'in_home_view', 'pin_to_top', ...NULLABLE]);
export const SUBSCRIPTION_PROPERTIES: readonly string[] = ['color', ...BOOLEAN];

const COLOR_RE = /^#[0-9a-fA-F]{6}$/;

interface CheckedChange {
  streamId: number;
  column: Column;
  /** What the column stores: a colour, 0/1, or null for "inherit". */
  stored: string | number | null;
}

function checkChange(c: PropertyChange): CheckedChange {
  const { property, value } = c;
  if (property === 'color') {
    if (typeof value !== 'string' || !COLOR_RE.test(value)) throw badRequest('color is not a valid hex color code');
    return { streamId: c.stream_id, column: 'color', stored: value };
  }
  if (!BOOLEAN.has(property)) throw badRequest(`Unknown subscription property: ${property}`);
  if (value === null && NULLABLE.has(property)) return { streamId: c.stream_id, column: property as Column, stored: null };
  if (typeof value !== 'boolean') throw badRequest(`${property} is not a boolean`);
  // The legacy in_home_view is the inverse of is_muted.
  if (property === 'in_home_view') return { streamId: c.stream_id, column: 'is_muted', stored: value ? 0 : 1 };
  return { streamId: c.stream_id, column: property as Column, stored: value ? 1 : 0 };
}

/** Validates every change before writing any, then applies them in one transaction. */
export async function checkUpdateSubscriptionProperties(app: AppContext, user: User, changes: PropertyChange[]): Promise<void> {
  if (changes.length === 0) throw badRequest('Nothing to do. Specify at least one subscription property.');
  const checked = changes.map(checkChange);
  await runAction(app, async (scope) => {
    for (const c of checked) {
      const stream = await streamById(scope.tx, user.realm_id, c.streamId);
      const sub = stream ? await subscription(scope.tx, user.id, stream.id) : undefined;
      if (!stream || !canSeeStream(user, stream, sub)) throw badRequest('Invalid stream ID');
      if (!sub?.active) throw badRequest(`Not subscribed to stream ID ${stream.id}`);
      await updateSubscription(scope.tx, sub.id, { [c.column]: c.stored });
      const update = (property: string, value: unknown): SubscriptionEvent => ({ type: 'subscription', op: 'update', stream_id: stream.id, property, value });
      if (c.column === 'is_muted') {
        // Since feature level 139 both names are sent (the legacy one first), so clients can move to is_muted.
        scope.emit(update('in_home_view', c.stored !== 1), [user.id]);
        scope.emit(update('is_muted', c.stored === 1), [user.id]);
      } else if (c.column === 'color') {
        scope.emit(update('color', c.stored), [user.id]);
      } else {
        scope.emit(update(c.column, c.stored === null ? null : c.stored === 1), [user.id]);
      }
    }
  });
}
