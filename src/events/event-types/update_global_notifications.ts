// update_global_notifications events (legacy): one notification setting, as a top-level field;
// made from user_settings events for clients without `user_settings_object` (user_settings.ts).
// Its group holds the settings declared with this legacy type (settings-registry.ts) as
// top-level fields.
import { AVAILABLE_SOUNDS } from '../../lib/settings-registry.ts';
import { legacySettings, setSetting } from '../apply/settings.ts';
import { defineEventType, type SnapshotGroup } from '../event-type.ts';

export type UpdateGlobalNotificationsEvent = { type: 'update_global_notifications'; user: string; notification_name: string; setting: unknown };

export const updateGlobalNotificationsGroup: SnapshotGroup = async (ctx) => {
  const fields = legacySettings(ctx, 'update_global_notifications');
  return fields ? { ...fields, available_notification_sounds: [...AVAILABLE_SOUNDS] } : {};
};

export const updateGlobalNotificationsEventType = defineEventType<UpdateGlobalNotificationsEvent>({
  type: 'update_global_notifications',
  snapshot: { update_global_notifications: updateGlobalNotificationsGroup },
  apply(state, event) {
    if (typeof event.notification_name === 'string') setSetting(state, event.notification_name, event.setting);
  },
});
