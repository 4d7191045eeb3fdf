// Access to streams and users: each `accessX` returns what the caller may see or throws the
// coded error. Who may do what (roles, the realm's policies) is in permissions.ts.
import type { Conn, Tx } from '../db/database.ts';
import type { Stream, Subscription, User } from '../db/schema.ts';
import { activeUsersWithSubscription, streamById, streamByName, subscription } from '../db/queries/streams.ts';
import { userByEmail, userById } from '../db/queries/users.ts';
import { badRequest, streamDoesNotExist } from './errors.ts';
import { isAdmin, isGuest } from './permissions.ts';

type Q = Conn | Tx;

/** Whether the user may see that the stream exists (its name and metadata). */
export function canSeeStream(user: User, stream: Stream, sub: Subscription | undefined): boolean {
  if (sub?.active) return true;
  if (stream.invite_only) return isAdmin(user);
  if (isGuest(user)) return stream.is_web_public === 1;
  return true;
}

/** Whether the user may read the stream's messages (from the point of view of access). */
export function canReadStreamMessages(user: User, stream: Stream, sub: Subscription | undefined): boolean {
  if (sub?.active) return true;
  if (stream.invite_only) return false;
  if (isGuest(user)) return stream.is_web_public === 1;
  return true;
}

export interface StreamAccess {
  stream: Stream;
  sub: Subscription | undefined;
}

export async function accessStreamById(db: Q, user: User, streamId: number): Promise<StreamAccess> {
  const stream = await streamById(db, user.realm_id, streamId);
  const sub = stream ? await subscription(db, user.id, stream.id) : undefined;
  if (!stream || !canSeeStream(user, stream, sub)) throw badRequest('Invalid stream ID');
  return { stream, sub };
}

export async function accessStreamByName(db: Q, user: User, name: string): Promise<StreamAccess> {
  const stream = await streamByName(db, user.realm_id, name);
  const sub = stream ? await subscription(db, user.id, stream.id) : undefined;
  if (!stream || !canSeeStream(user, stream, sub)) {
    throw streamDoesNotExist(name);
  }
  return { stream, sub };
}

/** Another user of the caller's realm, by ID; deactivated users only when `allowInactive`. */
export async function accessUserById(db: Q, caller: User, userId: number, opts: { allowInactive?: boolean } = {}): Promise<User> {
  const user = await userById(db, caller.realm_id, userId);
  if (!user || (!user.is_active && !opts.allowInactive)) throw badRequest('No such user');
  return user;
}

export async function accessUserByEmail(db: Q, caller: User, email: string, opts: { allowInactive?: boolean } = {}): Promise<User> {
  const user = await userByEmail(db, caller.realm_id, email);
  if (!user || (!user.is_active && !opts.allowInactive)) throw badRequest('No such user');
  return user;
}

/** Every active user who may see that the stream exists: the audience of its stream events. */
export async function usersWhoCanSeeStream(db: Q, stream: Stream): Promise<number[]> {
  const users = await activeUsersWithSubscription(db, stream);
  return users
    .filter((u) => {
      if (u.sub_id !== null) return true;
      if (stream.invite_only) return isAdmin(u);
      if (isGuest(u)) return stream.is_web_public === 1;
      return true;
    })
    .map((u) => u.id);
}
