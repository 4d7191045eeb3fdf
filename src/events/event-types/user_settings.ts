// user_settings events: one of the user's settings changed. Clients without the
// `user_settings_object` capability also get the legacy event (update_display_settings or
// update_global_notifications, as the setting declares) and keep the settings as top-level
// snapshot fields.
import { AVAILABLE_SOUNDS, EMOJISET_CHOICES } from '../../lib/settings-registry.ts';
import { legacySettingEvent, userSettings } from '../../lib/user-settings.ts';
import { setSetting } from '../apply/settings.ts';
import { defineEventType, type SnapshotGroup } from '../event-type.ts';

export type UserSettingsEvent = { type: 'user_settings'; op: 'update'; property: string; value: unknown; language_name?: string };

/** The caller's settings with the defaults filled in. */
export const userSettingsSnapshot: SnapshotGroup = async ({ user }) => {
  if (!user) return {};
  return { user_settings: { ...userSettings(user), available_notification_sounds: [...AVAILABLE_SOUNDS], emojiset_choices: EMOJISET_CHOICES } };
};

/** The `user_settings` group: clients without the capability read the settings as top-level fields too, as before it existed. */
export const userSettingsGroup: SnapshotGroup = async (ctx) => {
  const group = await userSettingsSnapshot(ctx);
  const settings = group.user_settings as Record<string, unknown> | undefined;
  if (!settings) return {};
  return ctx.clientCapabilities.user_settings_object ? group : { ...group, ...settings };
};

export const userSettingsEventType = defineEventType<UserSettingsEvent>({
  type: 'user_settings',
  alsoAs: ['update_display_settings', 'update_global_notifications'],
  forClient(event, client) {
    if (client.capabilities.user_settings_object) return [event];
    // The legacy form, when the setting declares one (settings-registry.ts); the event goes to its
    // user only, so `user` is empty.
    const language = typeof event.language_name === 'string' ? { language_name: event.language_name } : {};
    const legacy = legacySettingEvent({ property: event.property, value: event.value, ...language }, '');
    return legacy ? [event, legacy] : [event];
  },
  snapshot: { user_settings: userSettingsGroup },
  apply(state, event) {
    if (event.op === 'update' && typeof event.property === 'string') setSetting(state, event.property, event.value);
  },
});
