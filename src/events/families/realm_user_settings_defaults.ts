// realm_user_settings_defaults events: one default setting for new users changed.
import type { EventFamily, State } from '../family.ts';
import type { BaseEvent } from '../types.ts';

function apply(state: State, event: BaseEvent): void {
  const defaults = state.realm_user_settings_defaults as Record<string, unknown> | undefined;
  if (defaults && event.op === 'update' && typeof event.property === 'string') defaults[event.property] = event.value;
}

export const realmUserSettingsDefaultsFamily: EventFamily = { apply };
