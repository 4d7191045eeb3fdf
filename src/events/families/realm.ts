// realm events: one organization setting changed (`update`), or several at once (`update_dict`).
import { PERMISSION_SETTINGS } from '../../lib/permissions.ts';
import { realmSetting } from '../../lib/settings-registry.ts';
import type { ClientOptions, EventFamily, State } from '../family.ts';
import type { BaseEvent } from '../types.ts';
import { recomputeOwnPermissions } from './own-permissions.ts';

const PERMISSION_INPUTS: ReadonlySet<string> = new Set(PERMISSION_SETTINGS);

/**
 * Sets the setting's snapshot field: its key as declared in the settings registry, or
 * `realm_<name>` for what is not a setting (the icon's `icon_url` and `icon_source`).
 */
function set(state: State, name: string, value: unknown): void {
  const key = realmSetting(name)?.snapshot ?? `realm_${name}`;
  if (key && key in state) state[key] = structuredClone(value);
}

function apply(state: State, event: BaseEvent, client: ClientOptions): void {
  let names: string[] = [];
  if (event.op === 'update' && typeof event.property === 'string') {
    set(state, event.property, event.value);
    names = [event.property];
  } else if (event.op === 'update_dict' && event.data && typeof event.data === 'object') {
    for (const [name, value] of Object.entries(event.data as Record<string, unknown>)) set(state, name, value);
    names = Object.keys(event.data);
  }
  if (names.some((n) => PERMISSION_INPUTS.has(n))) recomputeOwnPermissions(state, client.userId);
}

export const realmFamily: EventFamily = { apply };
