// The `realm_user` snapshot group: the realm's users, and the caller's own identity fields.
import { profileDataOfUsers } from '../../lib/profile-fields.ts';
import { usersInRealm } from '../../db/queries/users.ts';
import { avatarUrl } from '../../lib/avatar.ts';
import { isModerator, ownPermissions, roleFlags } from '../../lib/permissions.ts';
import { realmSettings, realmUrl } from '../../lib/realm.ts';
import { presentUser } from '../../presenters/user.ts';
import type { SnapshotGroup } from './types.ts';

export const realmUserGroup: SnapshotGroup = async ({ app, realm, user, clientExternalAvatar }) => {
  const url = realmUrl(app.config, realm);
  const users = await usersInRealm(app.db.kysely, realm.id, { includeInactive: true });
  const profiles = await profileDataOfUsers(app.db.kysely, realm.id, null);
  // Bots have no custom profile fields, so no profile_data.
  const present = (u: (typeof users)[number]) => {
    const json = presentUser(u, { clientExternalAvatar, realmUrl: url });
    return u.is_bot ? json : { ...json, profile_data: profiles.get(u.id) ?? {} };
  };
  const byId = (a: { user_id: number }, b: { user_id: number }): number => a.user_id - b.user_id;
  const out: Record<string, unknown> = {
    realm_users: users.filter((u) => u.is_active).map(present).sort(byId),
    realm_non_active_users: users.filter((u) => !u.is_active).map(present).sort(byId),
    cross_realm_bots: [],
  };
  if (user) {
    Object.assign(out, {
      user_id: user.id,
      email: user.email,
      delivery_email: user.delivery_email,
      full_name: user.full_name,
      ...roleFlags(user.role),
      is_moderator: isModerator(user),
      is_billing_admin: user.is_billing_admin === 1,
      avatar_source: user.avatar_source,
      avatar_url: avatarUrl(user, false, url),
      avatar_url_medium: avatarUrl(user, false, url, true),
      ...ownPermissions(user, realmSettings(realm), Math.floor(Date.now() / 1000)),
    });
  }
  return out;
};
