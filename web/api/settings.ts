// The settings pages' calls: personal settings and the organization's administration. Each
// one only asks the server; what changed comes back as an event that the store applies, so
// every open tab follows the same way.
import type { Api, Params } from './http.ts';
import { csrfHeaders, ApiError } from './http.ts';

export class SettingsApi {
  constructor(private readonly api: Api) {}

  // --- personal --------------------------------------------------------------------------

  updateSettings(params: Params): Promise<unknown> {
    return this.api.patch('/settings', params);
  }

  changePassword(oldPassword: string, newPassword: string): Promise<unknown> {
    return this.api.patch('/settings', { old_password: oldPassword, new_password: newPassword });
  }

  /** The API key, after the password is given again (the login check of the API). */
  async fetchApiKey(email: string, password: string): Promise<string> {
    const r = await this.api.post<{ api_key: string }>('/fetch_api_key', { username: email, password });
    return r.api_key;
  }

  async regenerateApiKey(): Promise<string> {
    return (await this.api.post<{ api_key: string }>('/users/me/api_key/regenerate')).api_key;
  }

  /** Uploads one's avatar (the server crops it to a square). */
  async uploadAvatar(file: Blob): Promise<void> {
    await this.postFile('/users/me/avatar', file, 'avatar');
  }

  removeAvatar(): Promise<unknown> {
    return this.api.delete('/users/me/avatar');
  }

  setProfileData(data: { id: number; value: unknown }[]): Promise<unknown> {
    return this.api.patch('/users/me/profile_data', { data });
  }

  clearProfileData(ids: number[]): Promise<unknown> {
    return this.api.delete('/users/me/profile_data', { data: ids });
  }

  setStatus(params: { status_text?: string; away?: boolean; emoji_name?: string }): Promise<unknown> {
    return this.api.post('/users/me/status', params);
  }

  setSubscriptionProperty(streamId: number, property: string, value: unknown): Promise<unknown> {
    return this.api.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: streamId, property, value }] });
  }

  addAlertWords(words: string[]): Promise<unknown> {
    return this.api.post('/users/me/alert_words', { alert_words: words });
  }

  removeAlertWords(words: string[]): Promise<unknown> {
    return this.api.delete('/users/me/alert_words', { alert_words: words });
  }

  setTopicPolicy(streamId: number, topic: string, policy: number): Promise<unknown> {
    return this.api.post('/user_topics', { stream_id: streamId, topic, visibility_policy: policy });
  }

  muteUser(id: number, mute: boolean): Promise<unknown> {
    return mute ? this.api.post(`/users/me/muted_users/${id}`) : this.api.delete(`/users/me/muted_users/${id}`);
  }

  // --- organization ----------------------------------------------------------------------

  updateRealm(params: Params): Promise<unknown> {
    return this.api.patch('/realm', params);
  }

  updateUser(id: number, params: Params): Promise<unknown> {
    return this.api.patch(`/users/${id}`, params);
  }

  deactivateUser(id: number): Promise<unknown> {
    return this.api.delete(`/users/${id}`);
  }

  reactivateUser(id: number): Promise<unknown> {
    return this.api.post(`/users/${id}/reactivate`);
  }

  createStream(params: { name: string; description: string; invite_only: boolean; stream_post_policy: number; principals: number[] }): Promise<unknown> {
    const { name, description, ...rest } = params;
    return this.api.post('/users/me/subscriptions', { subscriptions: [{ name, description }], ...rest });
  }

  updateStream(id: number, params: Params): Promise<unknown> {
    return this.api.patch(`/streams/${id}`, params);
  }

  archiveStream(id: number): Promise<unknown> {
    return this.api.delete(`/streams/${id}`);
  }

  async streamMembers(id: number): Promise<number[]> {
    return (await this.api.get<{ subscribers: number[] }>(`/streams/${id}/members`)).subscribers;
  }

  subscribe(streamName: string, userIds: number[]): Promise<unknown> {
    return this.api.post('/users/me/subscriptions', { subscriptions: [{ name: streamName }], principals: userIds });
  }

  unsubscribe(streamName: string, userIds: number[]): Promise<unknown> {
    return this.api.delete('/users/me/subscriptions', { subscriptions: [streamName], principals: userIds });
  }

  setDefaultStream(id: number, on: boolean): Promise<unknown> {
    return on ? this.api.post('/default_streams', { stream_id: id }) : this.api.delete('/default_streams', { stream_id: id });
  }

  addRealmDomain(domain: string, allowSubdomains: boolean): Promise<unknown> {
    return this.api.post('/realm/domains', { domain, allow_subdomains: allowSubdomains });
  }

  changeRealmDomain(domain: string, allowSubdomains: boolean): Promise<unknown> {
    return this.api.patch(`/realm/domains/${encodeURIComponent(domain)}`, { allow_subdomains: allowSubdomains });
  }

  removeRealmDomain(domain: string): Promise<unknown> {
    return this.api.delete(`/realm/domains/${encodeURIComponent(domain)}`);
  }

  /** Sends one file as multipart (as the reference's web app does); other parameters as fields. */
  private async postFile<T>(path: string, file: Blob, fileName: string): Promise<T> {
    const form = new FormData();
    form.append('file', file, fileName);
    const res = await fetch(`${this.api.opts.base}${path}`, {
      method: 'POST',
      body: form,
      headers: { Accept: 'application/json', ...this.api.opts.headers, ...csrfHeaders() },
      credentials: 'same-origin',
    });
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok || json.result !== 'success') throw new ApiError(String(json.msg ?? `HTTP ${res.status}`), res.status, String(json.code ?? 'BAD_REQUEST'), json);
    return json as T;
  }

  /** Uploads a custom emoji. */
  async uploadEmoji(name: string, file: Blob): Promise<void> {
    await this.postFile(`/realm/emoji/${encodeURIComponent(name)}`, file, 'emoji');
  }

  /** Uploads the organization's icon (the server crops it to a square). */
  async uploadRealmIcon(file: Blob): Promise<void> {
    await this.postFile('/realm/icon', file, 'icon');
  }

  removeRealmIcon(): Promise<unknown> {
    return this.api.delete('/realm/icon');
  }

  removeEmoji(name: string): Promise<unknown> {
    return this.api.delete(`/realm/emoji/${encodeURIComponent(name)}`);
  }

  addLinkifier(pattern: string, urlTemplate: string): Promise<unknown> {
    return this.api.post('/realm/filters', { pattern, url_template: urlTemplate });
  }

  updateLinkifier(id: number, pattern: string, urlTemplate: string): Promise<unknown> {
    return this.api.patch(`/realm/filters/${id}`, { pattern, url_template: urlTemplate });
  }

  removeLinkifier(id: number): Promise<unknown> {
    return this.api.delete(`/realm/filters/${id}`);
  }

  addProfileField(params: Params): Promise<unknown> {
    return this.api.post('/realm/profile_fields', params);
  }

  updateProfileField(id: number, params: Params): Promise<unknown> {
    return this.api.patch(`/realm/profile_fields/${id}`, params);
  }

  removeProfileField(id: number): Promise<unknown> {
    return this.api.delete(`/realm/profile_fields/${id}`);
  }

  reorderProfileFields(order: number[]): Promise<unknown> {
    return this.api.patch('/realm/profile_fields', { order });
  }

  createGroup(name: string, description: string, members: number[]): Promise<unknown> {
    return this.api.post('/user_groups/create', { name, description, members });
  }

  updateGroup(id: number, params: Params): Promise<unknown> {
    return this.api.patch(`/user_groups/${id}`, params);
  }

  deactivateGroup(id: number): Promise<unknown> {
    return this.api.post(`/user_groups/${id}/deactivate`);
  }

  groupMembers(id: number, add: number[], remove: number[]): Promise<unknown> {
    return this.api.post(`/user_groups/${id}/members`, { add, delete: remove });
  }

  groupSubgroups(id: number, add: number[], remove: number[]): Promise<unknown> {
    return this.api.post(`/user_groups/${id}/subgroups`, { add, delete: remove });
  }

  createBot(params: { full_name: string; short_name: string; bot_type: number }): Promise<{ user_id: number; api_key: string }> {
    return this.api.post<{ user_id: number; api_key: string }>('/bots', params);
  }

  deactivateBot(id: number): Promise<unknown> {
    return this.api.delete(`/bots/${id}`);
  }

  reactivateBot(id: number): Promise<unknown> {
    return this.api.post(`/users/${id}/reactivate`);
  }

  async regenerateBotKey(id: number): Promise<string> {
    return (await this.api.post<{ api_key: string }>(`/bots/${id}/api_key/regenerate`)).api_key;
  }

  // --- invitations -----------------------------------------------------------------------

  async invites(): Promise<Invite[]> {
    return (await this.api.get<{ invites: Invite[] }>('/invites')).invites;
  }

  /** Email invitations; a partial failure is an ApiError whose `body.errors` lists [email, message, deactivated]. */
  inviteByEmail(params: InviteParams & { invitee_emails: string }): Promise<unknown> {
    return this.api.post('/invites', params);
  }

  async createInviteLink(params: InviteParams): Promise<string> {
    return (await this.api.post<{ invite_link: string }>('/invites/multiuse', params)).invite_link;
  }

  revokeInvite(inv: Pick<Invite, 'id' | 'is_multiuse'>): Promise<unknown> {
    return this.api.delete(inv.is_multiuse ? `/invites/multiuse/${inv.id}` : `/invites/${inv.id}`);
  }

  resendInvite(id: number): Promise<unknown> {
    return this.api.post(`/invites/${id}/resend`);
  }
}

export interface Invite {
  id: number;
  invited_by_user_id: number;
  invited: number;
  expiry_date: number | null;
  invited_as: number;
  is_multiuse: boolean;
  email?: string;
  link_url?: string;
}

// A type, not an interface: it must fit the client's `Params` index signature.
export type InviteParams = {
  invite_expires_in_minutes: number | null;
  invite_as: number;
  stream_ids: number[];
  include_realm_default_subscriptions: boolean;
};
