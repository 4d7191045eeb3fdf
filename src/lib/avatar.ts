import { createHash } from 'node:crypto';

/**
 * Users without an uploaded avatar use an external avatar service keyed by the hash of their
 * email; a client that can compute that itself (`client_external_avatar`) gets null.
 */
export function avatarUrl(
  user: { id: number; realm_id: number; delivery_email: string; avatar_source: string; avatar_version: number },
  clientExternalAvatar: boolean,
  realmUrl: string,
): string | null {
  if (user.avatar_source === 'U') {
    return `${realmUrl}/user_avatars/${user.realm_id}/${user.id}.png?version=${user.avatar_version}`;
  }
  if (clientExternalAvatar) return null;
  const hash = createHash('md5').update(user.delivery_email.trim().toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=${user.avatar_version}`;
}
