// Organization administration: default stream groups, bot settings and the realm's defaults for
// new users' settings.
import type { Kysely } from 'kysely';
import { flag, withId, type Migration } from './util.ts';

export const migration: Migration = {
  name: '0007_admin',
  async up(db: Kysely<unknown>, dialect) {
    await withId(db.schema.createTable('default_stream_groups'), dialect)
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.createIndex('default_stream_groups_realm_name').unique().on('default_stream_groups').columns(['realm_id', 'name']).execute();
    await db.schema
      .createTable('default_stream_group_streams')
      .addColumn('group_id', 'integer', (c) => c.notNull().references('default_stream_groups.id'))
      .addColumn('stream_id', 'integer', (c) => c.notNull().references('streams.id'))
      .addPrimaryKeyConstraint('default_stream_group_streams_pk', ['group_id', 'stream_id'])
      .execute();

    // One row per bot: what the users table does not hold.
    await db.schema
      .createTable('bot_settings')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
      .addColumn('default_sending_stream_id', 'integer')
      .addColumn('default_events_register_stream_id', 'integer')
      .addColumn('default_all_public_streams', 'integer', flag)
      .addColumn('service_base_url', 'text')
      .addColumn('service_interface', 'integer')
      .addColumn('service_token', 'text')
      .execute();

    // JSON object of the new-user setting defaults that differ from the server's.
    await db.schema
      .createTable('realm_user_defaults')
      .addColumn('realm_id', 'integer', (c) => c.primaryKey().references('realms.id'))
      .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
  },
};
