// Who hears about a change to a message: everyone who has it, and for stream messages of
// streams with shared history, the stream's current subscribers too.
import type { Conn, Tx } from '../db/database.ts';
import type { Message } from '../db/schema.ts';
import { subscriberIds } from '../db/queries/streams.ts';

type Q = Conn | Tx;

export async function messageAudience(db: Q, messages: readonly Message[]): Promise<number[]> {
  if (messages.length === 0) return [];
  const ids = new Set<number>();
  const ms = messages.map((m) => m.id);
  for (let i = 0; i < ms.length; i += 500) {
    const rows = await db
      .selectFrom('user_messages as um')
      .innerJoin('users as u', 'u.id', 'um.user_id')
      .select('um.user_id')
      .distinct()
      .where('um.message_id', 'in', ms.slice(i, i + 500))
      .where('u.is_active', '=', 1)
      .execute();
    rows.forEach((r) => ids.add(r.user_id));
  }
  const streamIds = [...new Set(messages.flatMap((m) => (m.stream_id === null ? [] : [m.stream_id])))];
  if (streamIds.length > 0) {
    const streams = await db.selectFrom('streams').select(['id', 'history_public_to_subscribers']).where('id', 'in', streamIds).execute();
    const open = streams.filter((s) => s.history_public_to_subscribers).map((s) => s.id);
    for (const list of (await subscriberIds(db, open)).values()) list.forEach((u) => ids.add(u));
  }
  return [...ids].sort((a, b) => a - b);
}
