import { createHash } from 'node:crypto';

/** Sizes of the squares an uploaded avatar or organization icon is stored at. */
export const AVATAR_SIZE = 100;
export const AVATAR_MEDIUM_SIZE = 500;

/**
 * Users without an uploaded avatar use an external avatar service keyed by the hash of their
 * email; a client that can compute that itself (`client_external_avatar`) gets null.
 * `medium` is the 500px square (`avatar_url_medium`).
 */
export function avatarUrl(
  user: { id: number; realm_id: number; delivery_email: string; avatar_source: string; avatar_version: number },
  clientExternalAvatar: boolean,
  realmUrl: string,
  medium = false,
): string | null {
  if (user.avatar_source === 'U') {
    return `${realmUrl}/user_avatars/${user.realm_id}/${user.id}${medium ? '-medium' : ''}.png?version=${user.avatar_version}`;
  }
  if (clientExternalAvatar) return null;
  const hash = createHash('md5').update(user.delivery_email.trim().toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon${medium ? `&s=${AVATAR_MEDIUM_SIZE}` : ''}&version=${user.avatar_version}`;
}

/** The organization's icon: the uploaded one, or the server's default. */
export function realmIconUrl(realm: { id: number; icon_source: string; icon_version: number }, realmUrl: string): string {
  if (realm.icon_source === 'U') return `${realmUrl}/user_avatars/${realm.id}/realm/icon.png?version=${realm.icon_version}`;
  return `${realmUrl}/static/images/logo/parley-icon.png`;
}
