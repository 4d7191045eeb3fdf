// Submessages: the rows widgets (polls, todo lists) attach to a message, read back with it in
// the order they were added.
import type { Kysely } from 'kysely';
import { withId, type Migration } from './util.ts';

export const migration: Migration = {
  name: '0015_submessages',
  async up(db: Kysely<unknown>, dialect) {
    await withId(db.schema.createTable('submessages'), dialect)
      .addColumn('message_id', 'integer', (c) => c.notNull())
      .addColumn('sender_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('msg_type', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('submessages_message').on('submessages').columns(['message_id', 'id']).execute();
  },
};
