// The User object of the API, for responses and events alike.
import type { User } from '../db/schema.ts';
import { roleFlags } from '../lib/permissions.ts';
import { avatarUrl } from '../lib/avatar.ts';

export interface UserJson {
  user_id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  role: number;
  is_owner: boolean;
  is_admin: boolean;
  is_guest: boolean;
  is_bot: boolean;
  is_active: boolean;
  is_billing_admin: boolean;
  bot_type: number | null;
  bot_owner_id?: number | null;
  date_joined: string;
  timezone: string;
  avatar_url: string | null;
  avatar_version: number;
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
}

export interface UserPresentOptions {
  /** `client_external_avatar`: null avatar_url for users on the external avatar service. */
  clientExternalAvatar: boolean;
  realmUrl: string;
}

export function presentUser(user: User, opts: UserPresentOptions): UserJson {
  const json: UserJson = {
    user_id: user.id,
    email: user.email,
    delivery_email: user.delivery_email,
    full_name: user.full_name,
    role: user.role,
    ...roleFlags(user.role),
    is_bot: user.is_bot === 1,
    is_active: user.is_active === 1,
    is_billing_admin: user.is_billing_admin === 1,
    bot_type: user.bot_type,
    date_joined: new Date(user.date_joined * 1000).toISOString(),
    timezone: user.timezone,
    avatar_url: avatarUrl(user, opts.clientExternalAvatar, opts.realmUrl),
    avatar_version: user.avatar_version,
  };
  if (user.is_bot) json.bot_owner_id = user.bot_owner_id;
  return json;
}
