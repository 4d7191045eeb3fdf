// Saved event queues: written at shutdown, read back (and removed) at start.
import type { Conn } from '../database.ts';

export interface SavedQueueRow {
  queue_id: string;
  user_id: number;
  data: string;
}

/** Saves these queues, replacing earlier saves of the same ids (other processes' rows stay). */
export async function saveQueueRows(db: Conn, rows: SavedQueueRow[], now: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < rows.length; i += 200) {
      const batch = rows.slice(i, i + 200);
      await tx.deleteFrom('saved_event_queues').where('queue_id', 'in', batch.map((r) => r.queue_id)).execute();
      await tx.insertInto('saved_event_queues').values(batch.map((r) => ({ ...r, saved_at: now }))).execute();
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
