// Per-user tables: drafts, scheduled messages and muted users.
import type { Kysely } from 'kysely';
import { flag, withId, type Migration } from './util.ts';

export const migration: Migration = {
  name: '0005_personal',
  async up(db: Kysely<unknown>, dialect) {
    await withId(db.schema.createTable('drafts'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('type', 'text', (c) => c.notNull()) // '', 'stream' or 'private'
      .addColumn('to_ids', 'text', (c) => c.notNull()) // JSON array of stream or user IDs
      .addColumn('topic', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('last_edit_time', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('drafts_user').on('drafts').columns(['user_id', 'last_edit_time']).execute();

    await withId(db.schema.createTable('scheduled_messages'), dialect)
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('sender_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('type', 'text', (c) => c.notNull()) // 'stream' or 'private'
      .addColumn('stream_id', 'integer')
      .addColumn('to_user_ids', 'text') // JSON array, for direct messages
      .addColumn('topic', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('rendered_content', 'text', (c) => c.notNull())
      .addColumn('scheduled_timestamp', 'bigint', (c) => c.notNull())
      .addColumn('read_by_sender', 'integer')
      .addColumn('delivered', 'integer', flag)
      .addColumn('delivered_message_id', 'integer')
      .addColumn('failed', 'integer', flag)
      .addColumn('failure_message', 'text')
      // A delivering process owns the row until claimed_until; a crashed owner's claim expires.
      .addColumn('claim_token', 'text')
      .addColumn('claimed_until', 'bigint')
      .addColumn('date_created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('scheduled_messages_due').on('scheduled_messages').columns(['delivered', 'failed', 'scheduled_timestamp']).execute();
    await db.schema.createIndex('scheduled_messages_sender').on('scheduled_messages').columns(['sender_id', 'scheduled_timestamp']).execute();

    await db.schema
      .createTable('muted_users')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('muted_user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('date_muted', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('muted_users_pk', ['user_id', 'muted_user_id'])
      .execute();
    await db.schema.createIndex('muted_users_muted').on('muted_users').column('muted_user_id').execute();
  },
};
