// Tables that several areas read: custom emoji, linkifiers, uploaded files and the messages
// that link them.
import type { Kysely } from 'kysely';
import { flag, withId, type Migration } from './util.ts';

export const migration: Migration = {
  name: '0002_shared',
  async up(db: Kysely<unknown>, dialect) {
    await withId(db.schema.createTable('realm_emoji'), dialect)
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('author_id', 'integer')
      .addColumn('deactivated', 'integer', flag)
      .addColumn('date_created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('realm_emoji_realm_name').on('realm_emoji').columns(['realm_id', 'name']).execute();

    await withId(db.schema.createTable('realm_linkifiers'), dialect)
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('pattern', 'text', (c) => c.notNull())
      .addColumn('url_template', 'text', (c) => c.notNull())
      .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('realm_linkifiers_realm').on('realm_linkifiers').columns(['realm_id', 'order']).execute();

    await withId(db.schema.createTable('attachments'), dialect)
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('path_id', 'text', (c) => c.notNull().unique()) // "<realm>/<random>/<file name>"
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('create_time', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('attachments_owner').on('attachments').column('owner_id').execute();
    await db.schema
      .createTable('attachment_messages')
      .addColumn('attachment_id', 'integer', (c) => c.notNull().references('attachments.id'))
      .addColumn('message_id', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('attachment_messages_pk', ['attachment_id', 'message_id'])
      .execute();
    await db.schema.createIndex('attachment_messages_message').on('attachment_messages').column('message_id').execute();
  },
};
