// user_settings events: one of the user's settings changed. Clients without the
// `user_settings_object` capability also get the legacy events (legacy.ts) and keep the settings
// as top-level snapshot fields.
import type { EventFamily, State } from '../family.ts';
import type { BaseEvent } from '../types.ts';
import { userSettingsFamily as legacyForm } from './legacy.ts';

function setSetting(state: State, name: string, value: unknown): void {
  const settings = state.user_settings as Record<string, unknown> | undefined;
  if (settings && name in settings) settings[name] = value;
  if (name in state) state[name] = value;
}

export const userSettingsFamily: EventFamily = {
  ...legacyForm,
  apply(state, event) {
    if (event.op === 'update' && typeof event.property === 'string') setSetting(state, event.property, event.value);
  },
};

/** `update_display_settings` (legacy): one display setting, as a top-level field. */
export const updateDisplaySettingsFamily: EventFamily = {
  apply(state, event: BaseEvent) {
    if (typeof event.setting_name === 'string') setSetting(state, event.setting_name, event.setting);
  },
};

/** `update_global_notifications` (legacy): one notification setting, as a top-level field. */
export const updateGlobalNotificationsFamily: EventFamily = {
  apply(state, event: BaseEvent) {
    if (typeof event.notification_name === 'string') setSetting(state, event.notification_name, event.setting);
  },
};
