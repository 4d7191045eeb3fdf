// The password check shared by POST /fetch_api_key and the browser's POST /accounts/login/.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Realm, User } from '../db/schema.ts';
import { userByEmail } from '../db/queries/users.ts';
import { checkPassword } from '../lib/apikey.ts';
import { authenticationFailed, userDeactivated } from '../lib/errors.ts';

/**
 * The active user of this realm with this email and password, or the coded 401; or, once the
 * username or the client address has used up its password attempts, 429 RATE_LIMIT_HIT without
 * checking the password (see `RateLimiter.passwordAttempt`).
 */
export async function checkPasswordLogin(app: AppContext, request: FastifyRequest, realm: Realm, username: string, password: string): Promise<User> {
  const user = await app.limiter.passwordAttempt(request, realm.id, username, async () => {
    const found = await userByEmail(app.db.kysely, realm.id, username);
    return found !== undefined && (await checkPassword(password, found.password_hash)) ? found : undefined;
  });
  if (!user) throw authenticationFailed();
  if (!user.is_active) throw userDeactivated();
  return user;
}
