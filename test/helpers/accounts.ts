// What the joining tests look up in the database of a test server: accounts and subscriptions.
import type { TestServer } from './server.ts';

export async function userByEmail(s: TestServer, email: string) {
  return s.server.app.db.kysely.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** The names of the streams the user is subscribed to, sorted. */
export async function streamNamesOf(s: TestServer, userId: number): Promise<string[]> {
  const rows = await s.server.app.db.kysely
    .selectFrom('subscriptions')
    .innerJoin('streams', 'streams.id', 'subscriptions.stream_id')
    .select('streams.name')
    .where('subscriptions.user_id', '=', userId)
    .where('subscriptions.active', '=', 1)
    .orderBy('streams.name')
    .execute();
  return rows.map((r) => r.name);
}
