// Saving the queues at a graceful shutdown and restoring them at start, so clients polling
// across a restart keep their queues and lose no event.
import type { Db } from '../db/database.ts';
import { saveQueueRows, takeSavedQueues } from '../db/queries/event_queues.ts';
import type { Logger } from '../log.ts';
import type { QueueManager } from './manager.ts';
import type { QueueData } from './queue.ts';

export async function saveQueues(db: Db, manager: QueueManager): Promise<number> {
  const queues = manager.save();
  const rows = queues.map((q) => ({ queue_id: q.id, user_id: q.client.userId, data: JSON.stringify(q) }));
  await saveQueueRows(db.kysely, rows, Math.floor(Date.now() / 1000));
  return rows.length;
}

export async function restoreQueues(db: Db, manager: QueueManager, log: Logger): Promise<number> {
  const rows = await takeSavedQueues(db.kysely);
  const saved: QueueData[] = [];
  for (const row of rows) {
    try {
      saved.push(JSON.parse(row.data) as QueueData);
    } catch {
      log.warn({ queueId: row.queue_id }, 'skipped an unreadable saved event queue');
    }
  }
  manager.restore(saved);
  return saved.length;
}
