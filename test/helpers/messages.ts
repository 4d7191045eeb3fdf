// Shortcuts for message tests.
import type { Account, TestServer } from './server.ts';

export async function send(s: TestServer, to: string, topic: string, content: string, as?: Account): Promise<number> {
  const r = await s.ok('POST', '/api/v1/messages', { type: 'stream', to, topic, content }, as);
  return r.id as number;
}

export async function dm(s: TestServer, to: number[], content: string, as?: Account): Promise<number> {
  const r = await s.ok('POST', '/api/v1/messages', { type: 'direct', to, content }, as);
  return r.id as number;
}

export async function ids(s: TestServer, params: Record<string, unknown>, as?: Account): Promise<number[]> {
  const r = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 100, num_after: 0, ...params }, as);
  return (r.messages as { id: number }[]).map((m) => m.id);
}

export async function subscribe(s: TestServer, names: string[], as?: Account, opts: Record<string, unknown> = {}): Promise<void> {
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: names.map((name) => ({ name })), ...opts }, as);
}

/** Changes realm settings directly (the realm administration API is another area's). */
export async function setRealmSettings(s: TestServer, settings: Record<string, unknown>): Promise<void> {
  const db = s.server.app.db.kysely;
  const realm = await db.selectFrom('realms').selectAll().where('subdomain', '=', '').executeTakeFirstOrThrow();
  const current = JSON.parse(realm.settings) as Record<string, unknown>;
  await db.updateTable('realms').set({ settings: JSON.stringify({ ...current, ...settings }) }).where('id', '=', realm.id).execute();
}

/** Makes messages look older (time limits), by moving their send time back. */
export async function age(s: TestServer, messageIds: number[], seconds: number): Promise<void> {
  const db = s.server.app.db.kysely;
  for (const id of messageIds) {
    const m = await db.selectFrom('messages').select('date_sent').where('id', '=', id).executeTakeFirstOrThrow();
    await db.updateTable('messages').set({ date_sent: m.date_sent - seconds }).where('id', '=', id).execute();
  }
}
