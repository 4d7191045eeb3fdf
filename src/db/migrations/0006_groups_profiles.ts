// Custom profile fields and users' values, user status, alert words and presence.
import { sql, type Kysely } from 'kysely';
import { flag, withId, type Migration } from './util.ts';

export const migration: Migration = {
  name: '0006_groups_profiles',
  async up(db: Kysely<unknown>, dialect) {
    await withId(db.schema.createTable('custom_profile_fields'), dialect)
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('hint', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('type', 'integer', (c) => c.notNull())
      .addColumn('field_data', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('order', 'integer', (c) => c.notNull())
      .addColumn('display_in_profile_summary', 'integer', flag)
      .addColumn('required', 'integer', flag)
      .addColumn('editable_by_user', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema
      .createIndex('custom_profile_fields_realm_name')
      .unique()
      .on('custom_profile_fields')
      .expression(sql`realm_id, lower(name)`)
      .execute();

    await db.schema
      .createTable('custom_profile_field_values')
      .addColumn('field_id', 'integer', (c) => c.notNull().references('custom_profile_fields.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('rendered_value', 'text')
      .addPrimaryKeyConstraint('custom_profile_field_values_pk', ['field_id', 'user_id'])
      .execute();
    await db.schema.createIndex('custom_profile_field_values_user').on('custom_profile_field_values').column('user_id').execute();

    await db.schema
      .createTable('user_status')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
      .addColumn('status_text', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('emoji_name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('emoji_code', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('reaction_type', 'text', (c) => c.notNull().defaultTo('unicode_emoji'))
      .addColumn('timestamp', 'bigint', (c) => c.notNull())
      .execute();

    await withId(db.schema.createTable('alert_words'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('word', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('alert_words_user_word').unique().on('alert_words').expression(sql`user_id, lower(word)`).execute();

    // One row per user, as the reference keeps it: when they were last active and last connected.
    await db.schema
      .createTable('presence')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
      .addColumn('realm_id', 'integer', (c) => c.notNull())
      .addColumn('last_connected_time', 'bigint', (c) => c.notNull())
      .addColumn('last_active_time', 'bigint')
      .execute();
    await db.schema.createIndex('presence_realm').on('presence').columns(['realm_id', 'last_connected_time']).execute();
  },
};
