// Event families whose client form depends on client capabilities. Their events come from
// other areas (settings, message deletion, linkifiers); the reshaping lives here with the queues.
import type { EventFamily } from '../family.ts';
import type { BaseEvent } from '../types.ts';

/** Settings that the legacy `update_display_settings` event carried; the rest were notifications. */
const DISPLAY_SETTINGS = new Set([
  'twenty_four_hour_time', 'dense_mode', 'web_mark_read_on_scroll_policy', 'starred_message_counts', 'fluid_layout_width',
  'high_contrast_mode', 'color_scheme', 'translate_emoticons', 'display_emoji_reaction_users', 'default_language',
  'default_view', 'escape_navigates_to_default_view', 'left_side_userlist', 'emojiset', 'demote_inactive_streams',
  'user_list_style', 'timezone', 'enter_sends',
]);

/** Without `user_settings_object`, a settings change also arrives in its legacy form. */
export const userSettingsFamily: EventFamily = {
  alsoAs: ['update_display_settings', 'update_global_notifications'],
  forClient(event, client) {
    if (client.capabilities.user_settings_object || event.op !== 'update' || typeof event.property !== 'string') return [event];
    const legacy: BaseEvent = DISPLAY_SETTINGS.has(event.property)
      ? { type: 'update_display_settings', user: '', setting_name: event.property, setting: event.value }
      : { type: 'update_global_notifications', user: '', notification_name: event.property, setting: event.value };
    if (event.property === 'default_language' && typeof event.language_name === 'string') legacy.language_name = event.language_name;
    return [event, legacy];
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
