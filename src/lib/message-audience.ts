// Who hears about a change to a message: everyone who has it, and for stream messages of
// streams with shared history, the stream's current subscribers too.
import type { Conn, Tx } from '../db/database.ts';
import type { Message } from '../db/schema.ts';
import { activeHolderIds } from '../db/queries/messages.ts';
import { streamsHistoryPublic, subscriberIds } from '../db/queries/streams.ts';

type Q = Conn | Tx;

export async function messageAudience(db: Q, messages: readonly Message[]): Promise<number[]> {
  if (messages.length === 0) return [];
  const ids = new Set<number>();
  const ms = messages.map((m) => m.id);
  for (let i = 0; i < ms.length; i += 500) {
    (await activeHolderIds(db, ms.slice(i, i + 500))).forEach((u) => ids.add(u));
  }
  const streamIds = [...new Set(messages.flatMap((m) => (m.stream_id === null ? [] : [m.stream_id])))];
  if (streamIds.length > 0) {
    const streams = await streamsHistoryPublic(db, streamIds);
    const open = streams.filter((s) => s.history_public_to_subscribers).map((s) => s.id);
    for (const list of (await subscriberIds(db, open)).values()) list.forEach((u) => ids.add(u));
  }
  return [...ids].sort((a, b) => a - b);
}
