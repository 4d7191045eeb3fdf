// Requests that mail a link to an address (password resets, open sign-up) are limited by the
// login limiter: each counts as a failed password attempt for the address asked about and for
// the client address, so the limits that stop password guessing also stop flooding an inbox.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Realm } from '../db/schema.ts';

/** Throws the 429 `RATE_LIMIT_HIT` error when this email or client address has asked too often. */
export async function countEmailRequest(app: AppContext, request: FastifyRequest, realm: Realm, email: string): Promise<void> {
  await app.limiter.passwordAttempt(request, realm.id, email, async () => undefined);
}
