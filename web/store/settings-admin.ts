// What the settings pages show beyond your settings and the organization's: custom emoji,
// linkifiers, profile fields and everyone's values, user groups, bots, default streams, muted
// users and statuses. Filled from the register snapshot and changed only by events, with the
// same rules as the server's event types (src/events/event-types/*).
import { signal } from '@preact/signals';
// What a user_status event does, shared with the server's apply (a module with no imports).
import { changedUserStatus, hasUserStatus, type UserStatus } from '../../src/lib/user-status.ts';

export interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated: boolean;
  author_id: number | null;
}

export interface Linkifier {
  id: number;
  pattern: string;
  url_template: string;
}

export interface ProfileField {
  id: number;
  type: number;
  order: number;
  name: string;
  hint: string;
  field_data: string;
  required: boolean;
  editable_by_user: boolean;
  display_in_profile_summary?: boolean;
}

export interface UserGroup {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
  deactivated?: boolean;
}

export interface Bot {
  user_id: number;
  full_name: string;
  email: string;
  bot_type: number;
  is_active: boolean;
  owner_id: number | null;
  api_key?: string;
  default_sending_stream?: string | null;
}

export type { UserStatus };

export interface RealmDomain {
  domain: string;
  allow_subdomains: boolean;
}

export type ProfileValue = { value: string; rendered_value?: string };

/** A list field's choices in their order, as { value: key, label: text }. */
export function fieldChoices(f: ProfileField): { value: string; label: string }[] {
  try {
    const data = JSON.parse(f.field_data || '{}') as Record<string, { text: string; order: string }>;
    return Object.entries(data)
      .sort((a, b) => Number(a[1].order) - Number(b[1].order))
      .map(([k, v]) => ({ value: k, label: v.text }));
  } catch {
    return [];
  }
}

/** A users field's value: the people's IDs (a JSON list). */
export function fieldUserIds(value: string): number[] {
  try {
    const ids: unknown = value ? JSON.parse(value) : [];
    return Array.isArray(ids) ? ids.filter((id): id is number => typeof id === 'number') : [];
  } catch {
    return [];
  }
}

type Ev = Record<string, unknown>;

export class AdminStore {
  readonly emoji = signal<Record<string, RealmEmoji>>({});
  readonly linkifiers = signal<Linkifier[]>([]);
  readonly profileFields = signal<ProfileField[]>([]);
  /** Users' custom profile field values: user id -> field id -> value. */
  readonly profileData = signal<Map<number, Record<string, ProfileValue>>>(new Map());
  readonly groups = signal<Map<number, UserGroup>>(new Map());
  readonly bots = signal<Bot[]>([]);
  readonly defaultStreams = signal<number[]>([]);
  readonly mutedUsers = signal<{ id: number; timestamp: number }[]>([]);
  readonly statuses = signal<Map<number, UserStatus>>(new Map());
  /** The email domains of open sign-up and of the email domain restriction, sorted by domain. */
  readonly realmDomains = signal<RealmDomain[]>([]);
  /** Counts subscription changes (peer_add, peer_remove, add, remove): subscriber lists are fetched, not kept, and refetch when it moves. */
  readonly subscribersVersion = signal(0);
  /** Counts `invites_changed` events: the event carries no data, so the Invitations section refetches when it moves. */
  readonly invitesVersion = signal(0);

  load(state: Record<string, unknown>): void {
    this.emoji.value = (state.realm_emoji ?? {}) as Record<string, RealmEmoji>;
    this.linkifiers.value = (state.realm_linkifiers ?? []) as Linkifier[];
    this.profileFields.value = sortFields((state.custom_profile_fields ?? []) as ProfileField[]);
    const data = new Map<number, Record<string, ProfileValue>>();
    for (const list of [state.realm_users, state.realm_non_active_users]) {
      for (const u of (list ?? []) as { user_id: number; profile_data?: Record<string, ProfileValue> }[]) if (u.profile_data) data.set(u.user_id, u.profile_data);
    }
    this.profileData.value = data;
    this.groups.value = new Map(((state.realm_user_groups ?? []) as UserGroup[]).map((g) => [g.id, g]));
    this.bots.value = (state.realm_bots ?? []) as Bot[];
    this.defaultStreams.value = ((state.realm_default_streams ?? []) as { stream_id: number }[]).map((s) => s.stream_id);
    this.mutedUsers.value = (state.muted_users ?? []) as { id: number; timestamp: number }[];
    this.realmDomains.value = (state.realm_domains ?? []) as RealmDomain[];
    this.statuses.value = new Map(Object.entries((state.user_status ?? {}) as Record<string, UserStatus>).map(([k, v]) => [Number(k), v]));
  }

  /** Whether you muted the person: their messages are hidden until shown. */
  isMuted(userId: number): boolean {
    return this.mutedUsers.value.some((m) => m.id === userId);
  }

  /** Whether the user is in the group, directly or through its subgroups: whom a mention of it reaches. */
  inGroup(groupId: number, userId: number): boolean {
    const groups = this.groups.value;
    const seen = new Set<number>();
    const queue = [groupId];
    for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
      const g = groups.get(id);
      if (!g || seen.has(id)) continue;
      seen.add(id);
      if (g.members.includes(userId)) return true;
      queue.push(...g.direct_subgroup_ids);
    }
    return false;
  }

  // --- event applies -------------------------------------------------------------------

  applyRealmEmoji(e: Ev): void {
    this.emoji.value = (e.realm_emoji ?? {}) as Record<string, RealmEmoji>;
  }

  applyLinkifiers(e: Ev): void {
    this.linkifiers.value = (e.realm_linkifiers ?? []) as Linkifier[];
  }

  applyProfileFields(e: Ev): void {
    const fields = sortFields((e.fields ?? []) as ProfileField[]);
    this.profileFields.value = fields;
    // Values of a deleted field leave everyone's profile, as on the server.
    const ids = new Set(fields.map((f) => String(f.id)));
    const data = new Map<number, Record<string, ProfileValue>>();
    for (const [id, d] of this.profileData.value) data.set(id, Object.fromEntries(Object.entries(d).filter(([k]) => ids.has(k))));
    this.profileData.value = data;
  }

  /** realm_user updates that carry one profile field's new value. */
  applyRealmUser(e: Ev): void {
    const person = e.person as { user_id: number; custom_profile_field?: { id: number; value: string | null; rendered_value?: string } } | undefined;
    const field = person?.custom_profile_field;
    if (e.op !== 'update' || !person || !field) return;
    const data = new Map(this.profileData.value);
    const mine = { ...(data.get(person.user_id) ?? {}) };
    if (field.value === null || field.value === '') delete mine[String(field.id)];
    else mine[String(field.id)] = { value: field.value, ...(field.rendered_value === undefined ? {} : { rendered_value: field.rendered_value }) };
    data.set(person.user_id, mine);
    this.profileData.value = data;
  }

  applyUserGroup(e: Ev): void {
    const groups = new Map(this.groups.value);
    const id = (e.group_id ?? (e.group as UserGroup | undefined)?.id) as number;
    const sorted = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);
    if (e.op === 'add') groups.set(id, e.group as UserGroup);
    else if (e.op === 'remove') groups.delete(id);
    else {
      const old = groups.get(id);
      if (!old) return;
      const g = { ...old };
      const users = (e.user_ids ?? []) as number[];
      const subs = (e.direct_subgroup_ids ?? []) as number[];
      if (e.op === 'update') Object.assign(g, e.data as Partial<UserGroup>);
      else if (e.op === 'add_members') g.members = sorted([...g.members, ...users]);
      else if (e.op === 'remove_members') g.members = g.members.filter((u) => !users.includes(u));
      else if (e.op === 'add_subgroups') g.direct_subgroup_ids = sorted([...g.direct_subgroup_ids, ...subs]);
      else if (e.op === 'remove_subgroups') g.direct_subgroup_ids = g.direct_subgroup_ids.filter((s) => !subs.includes(s));
      groups.set(id, g);
    }
    this.groups.value = groups;
  }

  applyRealmBot(e: Ev): void {
    const bot = e.bot as Bot;
    let bots = this.bots.value;
    if (e.op === 'add') bots = [...bots.filter((b) => b.user_id !== bot.user_id), bot];
    else if (e.op === 'delete') bots = bots.filter((b) => b.user_id !== bot.user_id);
    else if (e.op === 'remove') bots = bots.map((b) => (b.user_id === bot.user_id ? { ...b, is_active: false } : b));
    else if (e.op === 'update') bots = bots.map((b) => (b.user_id === bot.user_id ? { ...b, ...bot } : b));
    this.bots.value = bots;
  }

  applyDefaultStreams(e: Ev): void {
    this.defaultStreams.value = ((e.default_streams ?? []) as { stream_id: number }[]).map((s) => s.stream_id);
  }

  applyMutedUsers(e: Ev): void {
    this.mutedUsers.value = (e.muted_users ?? []) as { id: number; timestamp: number }[];
  }

  /** One domain added, changed (`allow_subdomains`) or removed; the list stays sorted. */
  applyRealmDomains(e: Ev): void {
    const others = this.realmDomains.value.filter((d) => d.domain !== (e.op === 'remove' ? e.domain : (e.realm_domain as RealmDomain).domain));
    const list = e.op === 'remove' ? others : [...others, { ...(e.realm_domain as RealmDomain) }];
    this.realmDomains.value = list.sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
  }

  applyUserStatus(e: Ev): void {
    const id = e.user_id as number;
    const all = new Map(this.statuses.value);
    const s = changedUserStatus(all.get(id), e);
    if (hasUserStatus(s)) all.set(id, s);
    else all.delete(id);
    this.statuses.value = all;
  }
}

function sortFields(fields: ProfileField[]): ProfileField[] {
  return [...fields].sort((a, b) => a.order - b.order);
}
