// The organization's users and their presence.
import { computed, signal } from '@preact/signals';
import type { User } from './types.ts';

import { presenceStatus, type PresenceStatus } from '../lib/time.ts';

export type { PresenceStatus };
interface PresenceTimes {
  active_timestamp: number;
  idle_timestamp: number;
}

export class UserStore {
  readonly byId = signal<Map<number, User>>(new Map());
  readonly presence = signal<Map<number, PresenceTimes>>(new Map());
  /** Server time of the snapshot, advanced by a clock tick so presence ages. */
  readonly now = signal(Math.floor(Date.now() / 1000));
  private clockSkew = 0;
  /** How long after its last report a client still counts as online (from the snapshot). */
  private offlineSeconds = 140;

  readonly active = computed(() => [...this.byId.value.values()].filter((u) => u.is_active));

  get(id: number): User | undefined {
    return this.byId.value.get(id);
  }

  name(id: number): string {
    return this.get(id)?.full_name ?? 'Unknown user';
  }

  byEmail(email: string): User | undefined {
    const lower = email.toLowerCase();
    for (const u of this.byId.value.values()) if (u.email.toLowerCase() === lower) return u;
    return undefined;
  }

  status(id: number): PresenceStatus {
    return presenceStatus(this.presence.value.get(id), this.now.value, this.offlineSeconds);
  }

  tick(): void {
    this.now.value = Math.floor(Date.now() / 1000) + this.clockSkew;
  }

  load(state: Record<string, unknown>): void {
    const users = new Map<number, User>();
    const add = (list: unknown, active: boolean) => {
      for (const u of (list ?? []) as User[]) users.set(u.user_id, { ...u, is_active: u.is_active ?? active });
    };
    add(state.realm_users, true);
    add(state.realm_non_active_users, false);
    add(state.cross_realm_bots, true);
    this.byId.value = users;
    const presence = new Map<number, PresenceTimes>();
    for (const [k, v] of Object.entries((state.presences ?? {}) as Record<string, PresenceTimes>)) {
      if (/^\d+$/.test(k)) presence.set(Number(k), v);
    }
    this.presence.value = presence;
    if (typeof state.server_presence_offline_threshold_seconds === 'number') this.offlineSeconds = state.server_presence_offline_threshold_seconds;
    if (typeof state.server_timestamp === 'number') this.clockSkew = Math.round(state.server_timestamp - Date.now() / 1000);
    this.tick();
  }

  // --- event applies -------------------------------------------------------------------

  applyRealmUser(e: Record<string, unknown>): void {
    const person = e.person as Partial<User> & { user_id: number };
    const users = new Map(this.byId.value);
    const old = users.get(person.user_id);
    if (e.op === 'add') users.set(person.user_id, { ...(person as User), is_active: person.is_active ?? true });
    else if (e.op === 'remove' && old) users.set(person.user_id, { ...old, is_active: false });
    else if (e.op === 'update' && old) {
      const patch: Partial<User> = { ...person };
      if ('new_email' in person) patch.email = String((person as Record<string, unknown>).new_email);
      users.set(person.user_id, { ...old, ...patch });
    } else return;
    this.byId.value = users;
  }

  applyPresence(e: Record<string, unknown>): void {
    const id = e.user_id as number;
    const next = new Map(this.presence.value);
    const old = next.get(id);
    // The event's per-client form (`presence.website`) or the modern timestamps.
    const client = (e.presence as Record<string, { status: string; timestamp: number }> | undefined)?.website;
    if (client) {
      next.set(id, {
        active_timestamp: client.status === 'active' ? client.timestamp : (old?.active_timestamp ?? 0),
        idle_timestamp: client.timestamp,
      });
    } else if (e.presences && typeof e.presences === 'object') {
      for (const [k, v] of Object.entries(e.presences as Record<string, PresenceTimes>)) next.set(Number(k), v);
    } else return;
    this.presence.value = next;
    if (typeof e.server_timestamp === 'number') this.clockSkew = Math.round(e.server_timestamp - Date.now() / 1000);
    this.tick();
  }
}
