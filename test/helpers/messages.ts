// What message tests read back: the IDs a fetch returns.
import type { Account, TestServer } from './server.ts';

export async function ids(s: TestServer, params: Record<string, unknown>, as?: Account): Promise<number[]> {
  const r = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 100, num_after: 0, ...params }, as);
  return (r.messages as { id: number }[]).map((m) => m.id);
}
