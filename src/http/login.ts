// The password check shared by POST /fetch_api_key and the browser's POST /accounts/login/.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Realm, User } from '../db/schema.ts';
import { userByEmail } from '../db/queries/users.ts';
import { checkPassword } from '../lib/apikey.ts';
import { ApiError } from '../lib/errors.ts';
import { checkLoginAllowed, recordLoginFailure } from './login-limits.ts';

/** The active user of this realm with this email and password, or the coded 401 (or 429). */
export async function checkPasswordLogin(app: AppContext, request: FastifyRequest, realm: Realm, username: string, password: string): Promise<User> {
  await checkLoginAllowed(app, request, username);
  const user = await userByEmail(app.db.kysely, realm.id, username);
  const ok = user !== undefined && (await checkPassword(password, user.password_hash));
  if (!user || !ok) {
    await recordLoginFailure(app, request, username);
    throw new ApiError('Your username or password is incorrect', 'AUTHENTICATION_FAILED', 401);
  }
  if (!user.is_active) throw new ApiError('Account is deactivated', 'USER_DEACTIVATED', 401);
  return user;
}
