// Requests that mail a link to an address (password resets, open sign-up) are limited by the
// login limiter, through its hooks (login-limits.ts): each
// request counts as a failed attempt for the address asked about and for the client address, so
// the limits that stop password guessing also stop flooding someone's inbox.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { checkLoginAllowed, recordLoginFailure } from './login-limits.ts';

/** Throws the 429 `RATE_LIMIT_HIT` error when this email or client address has asked too often. */
export async function countEmailRequest(app: AppContext, request: FastifyRequest, email: string): Promise<void> {
  await checkLoginAllowed(app, request, email);
  await recordLoginFailure(app, request, email);
}
