// Small helpers for the subscription tests: direct database tweaks for state that other areas'
// operations set (realm and user settings, read flags, bots), and event filters.
import { sql } from 'kysely';
import type { TestServer } from './server.ts';

export const db = (s: TestServer) => s.server.app.db.kysely;

export async function setRealmSettings(s: TestServer, settings: Record<string, unknown>): Promise<void> {
  const realm = await db(s).selectFrom('realms').select(['id', 'settings']).orderBy('id').executeTakeFirstOrThrow();
  const merged = { ...(JSON.parse(realm.settings) as Record<string, unknown>), ...settings };
  await db(s).updateTable('realms').set({ settings: JSON.stringify(merged) }).where('id', '=', realm.id).execute();
}

export async function setUserSettings(s: TestServer, userId: number, settings: Record<string, unknown>): Promise<void> {
  await db(s).updateTable('users').set({ settings: JSON.stringify(settings) }).where('id', '=', userId).execute();
}

export async function markRead(s: TestServer, userId: number, messageId: number): Promise<void> {
  await db(s).updateTable('user_messages').set({ flags: sql`flags | 1` }).where('user_id', '=', userId).where('message_id', '=', messageId).execute();
}

export async function makeBotOf(s: TestServer, botId: number, ownerId: number): Promise<void> {
  await db(s).updateTable('users').set({ is_bot: 1, bot_type: 1, bot_owner_id: ownerId }).where('id', '=', botId).execute();
}

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
