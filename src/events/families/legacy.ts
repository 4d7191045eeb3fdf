// Event families whose client form depends on client capabilities. Their events come from
// other areas (settings, message deletion, linkifiers); the reshaping lives here with the queues.
import type { EventFamily } from '../family.ts';
import { legacySettingEvent } from '../../lib/user-settings.ts';

/**
 * Without `user_settings_object`, a settings change also arrives in its legacy form, when the
 * setting declares one (settings-registry.ts); the event goes to its user only, so `user` is empty.
 */
export const userSettingsFamily: EventFamily = {
  alsoAs: ['update_display_settings', 'update_global_notifications'],
  forClient(event, client) {
    if (client.capabilities.user_settings_object || event.op !== 'update' || typeof event.property !== 'string') return [event];
    const language = typeof event.language_name === 'string' ? { language_name: event.language_name } : {};
    const legacy = legacySettingEvent({ property: event.property, value: event.value, ...language }, '');
    return legacy ? [event, legacy] : [event];
  },
};

/** Without `bulk_message_deletion`, one event per deleted message, with `message_id`. */
export const deleteMessageFamily: EventFamily = {
  forClient(event, client) {
    if (client.capabilities.bulk_message_deletion || !Array.isArray(event.message_ids)) return [event];
    return (event.message_ids as number[]).map((id) => {
      const { message_ids: _ids, ...rest } = event;
      void _ids;
      return { ...rest, message_id: id };
    });
  },
};

/** Without `linkifier_url_template`, clients get no linkifier events at all. */
export const linkifiersFamily: EventFamily = {
  forClient(event, client) {
    return client.capabilities.linkifier_url_template ? [event] : [];
  },
};
