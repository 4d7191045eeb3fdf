// The snapshot's own permissions (`can_create_streams`, ...) follow the user's role and the
// realm's policies; a client recomputes them when either changes, as the reference's does.
import { ownPermissions, PERMISSION_SETTINGS, type PermissionSettings } from '../../lib/permissions.ts';
import type { State } from '../event-type.ts';

/**
 * Recomputes them from the snapshot: the user's entry in `realm_users` and the `realm_*`
 * policies. A snapshot without the realm group cannot, and keeps its values.
 */
export function recomputeOwnPermissions(state: State, userId: number): void {
  if (!('can_create_streams' in state) || !Array.isArray(state.realm_users)) return;
  const me = (state.realm_users as Record<string, unknown>[]).find((p) => p.user_id === userId);
  if (!me || typeof me.role !== 'number' || typeof me.date_joined !== 'string') return;
  const settings: Record<string, unknown> = {};
  for (const name of PERMISSION_SETTINGS) {
    if (!(`realm_${name}` in state)) return;
    settings[name] = state[`realm_${name}`];
  }
  const member = { role: me.role, date_joined: Math.floor(Date.parse(me.date_joined) / 1000) };
  Object.assign(state, ownPermissions(member, settings as unknown as PermissionSettings, Math.floor(Date.now() / 1000)));
}
