// Saved event queues: written at shutdown, read back (and removed) at start.
import type { Conn } from '../database.ts';

export interface SavedQueueRow {
  queue_id: string;
  user_id: number;
  data: string;
}

export async function replaceSavedQueues(db: Conn, rows: SavedQueueRow[], now: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('saved_event_queues').execute();
    for (let i = 0; i < rows.length; i += 200) {
      await tx.insertInto('saved_event_queues').values(rows.slice(i, i + 200).map((r) => ({ ...r, saved_at: now }))).execute();
    }
  });
}

export async function takeSavedQueues(db: Conn): Promise<SavedQueueRow[]> {
  return db.transaction().execute(async (tx) => {
    const rows = await tx.selectFrom('saved_event_queues').select(['queue_id', 'user_id', 'data']).execute();
    await tx.deleteFrom('saved_event_queues').execute();
    return rows;
  });
}
