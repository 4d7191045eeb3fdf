// Events of other areas whose effect on a snapshot is a plain field update: realm settings,
// user settings and default streams. Their senders live in those areas' actions.
import type { EventFamily, State } from '../family.ts';
import type { BaseEvent } from '../types.ts';

/** `realm` events: `update` (one property) and `update_dict` (several), fields named `realm_<name>`. */
export const realmFamily: EventFamily = {
  apply(state: State, event: BaseEvent) {
    if (event.op === 'update' && typeof event.property === 'string') {
      const key = `realm_${event.property}`;
      if (key in state) state[key] = event.value;
    } else if (event.op === 'update_dict' && typeof event.data === 'object' && event.data !== null) {
      for (const [name, value] of Object.entries(event.data as Record<string, unknown>)) {
        const key = `realm_${name}`;
        if (key in state) state[key] = value;
      }
    }
  },
};

/** `user_settings` update: the settings object, and the legacy top-level copy when present. */
export function applyUserSettings(state: State, event: BaseEvent): void {
  if (event.op !== 'update' || typeof event.property !== 'string') return;
  const settings = state.user_settings as Record<string, unknown> | undefined;
  if (settings && event.property in settings) settings[event.property] = event.value;
  if (event.property in state) state[event.property] = event.value;
}

/** `default_streams`: the whole list, replaced. */
export const defaultStreamsFamily: EventFamily = {
  apply(state: State, event: BaseEvent) {
    if ('realm_default_streams' in state && Array.isArray(event.default_streams)) state.realm_default_streams = event.default_streams;
  },
};
