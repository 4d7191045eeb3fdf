// Muting another user: their messages arrive already read, and the caller's clients hide them.
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/database.ts';
import type { User } from '../db/schema.ts';
import { deleteMutedUser, insertMutedUser, isMuted, markMessagesFromSenderRead, mutedUsersOf } from '../db/queries/muted-users.ts';
import { userById } from '../db/queries/users.ts';
import { badRequest } from '../lib/errors.ts';
import { runAction, type ActionScope } from './action.ts';

/** Any human user of the caller's realm, deactivated ones included; bots cannot be muted. */
async function accessMutableUser(tx: Tx, caller: User, userId: number): Promise<User> {
  const target = await userById(tx, caller.realm_id, userId);
  if (!target || target.is_bot) throw badRequest('No such user');
  return target;
}

async function emitMutedUsers(scope: ActionScope, userId: number): Promise<void> {
  const muted = (await mutedUsersOf(scope.tx, userId)).map((r) => ({ id: r.muted_user_id, timestamp: r.date_muted }));
  scope.emit({ type: 'muted_users', muted_users: muted }, [userId]);
}

export async function checkMuteUser(app: AppContext, user: User, mutedUserId: number): Promise<void> {
  if (mutedUserId === user.id) throw badRequest('Cannot mute self');
  await runAction(app, async (scope) => {
    const target = await accessMutableUser(scope.tx, user, mutedUserId);
    if (await isMuted(scope.tx, user.id, target.id)) throw badRequest('User already muted');
    await insertMutedUser(scope.tx, user.id, target.id, scope.now);
    await emitMutedUsers(scope, user.id);
    // Existing messages from the muted user become read too, as new ones will arrive.
    const read = await markMessagesFromSenderRead(scope.tx, user.id, target.id);
    if (read.length > 0) {
      scope.emit({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: read, all: false }, [user.id]);
    }
  });
}

export async function checkUnmuteUser(app: AppContext, user: User, mutedUserId: number): Promise<void> {
  await runAction(app, async (scope) => {
    const target = await accessMutableUser(scope.tx, user, mutedUserId);
    if (!(await isMuted(scope.tx, user.id, target.id))) throw badRequest('User is not muted');
    await deleteMutedUser(scope.tx, user.id, target.id);
    await emitMutedUsers(scope, user.id);
  });
}
