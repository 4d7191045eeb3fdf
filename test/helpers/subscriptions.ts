// Small helpers for the subscription tests: what they read back, and event filters.
import type { TestServer } from './server.ts';

export const db = (s: TestServer) => s.server.app.db.kysely;

/** Published events of one type (and op), with their receivers sorted. */
export function eventsOf(s: TestServer, type: string, op?: string): { event: Record<string, any>; userIds: number[] }[] {
  return s.published
    .filter((p) => p.event.type === type && (op === undefined || p.event.op === op))
    .map((p) => ({ event: p.event, userIds: [...p.userIds].sort((a, b) => a - b) }));
}

export const sorted = (ids: number[]): number[] => [...ids].sort((a, b) => a - b);

export async function streamId(s: TestServer, name: string): Promise<number> {
  const row = await db(s).selectFrom('streams').select('id').where('name', '=', name).executeTakeFirstOrThrow();
  return row.id;
}
