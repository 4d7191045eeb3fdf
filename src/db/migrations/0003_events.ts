// Event queues saved by a graceful shutdown, restored (and removed) by the next start.
import type { Kysely } from 'kysely';
import type { Migration } from './util.ts';

export const migration: Migration = {
  name: '0003_events',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('saved_event_queues')
      .addColumn('queue_id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull())
      /** JSON of the queue: client options, filters, unacknowledged events. */
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('saved_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
