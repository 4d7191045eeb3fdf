// Where password guessing is limited. Every password check (POST /fetch_api_key and the browser
// login) calls these two, so a limiter plugged in here covers both. Until one is, they let
// everything through.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';

/**
 * Runs before the password is checked; throws the 429 `RATE_LIMIT_HIT` error (with
 * `retry-after`) when this username or client address has failed too often.
 */
export async function checkLoginAllowed(_app: AppContext, _request: FastifyRequest, _username: string): Promise<void> {}

/** Runs after a wrong username or password, to count the failure. */
export async function recordLoginFailure(_app: AppContext, _request: FastifyRequest, _username: string): Promise<void> {}
