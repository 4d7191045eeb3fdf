// Realms, users, streams, subscriptions, messages and the rows that give users messages.
import { sql, type Kysely } from 'kysely';
import { flag, withId, type Migration } from './util.ts';

export const migration: Migration = {
  name: '0001_core',
  async up(db: Kysely<unknown>, dialect) {
    await withId(db.schema.createTable('realms'), dialect)
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('subdomain', 'text', (c) => c.notNull().unique())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('date_created', 'bigint', (c) => c.notNull())
      .addColumn('deactivated', 'integer', flag)
      .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();

    await withId(db.schema.createTable('users'), dialect)
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('delivery_email', 'text', (c) => c.notNull())
      .addColumn('full_name', 'text', (c) => c.notNull())
      .addColumn('role', 'integer', (c) => c.notNull())
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('is_bot', 'integer', flag)
      .addColumn('bot_type', 'integer')
      .addColumn('bot_owner_id', 'integer')
      .addColumn('is_billing_admin', 'integer', flag)
      .addColumn('can_create_users', 'integer', flag)
      .addColumn('api_key', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text')
      .addColumn('date_joined', 'bigint', (c) => c.notNull())
      .addColumn('timezone', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('avatar_source', 'text', (c) => c.notNull().defaultTo('G'))
      .addColumn('avatar_version', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
    await db.schema.createIndex('users_realm_email').unique().on('users').columns(['realm_id', 'email']).execute();
    await db.schema
      .createIndex('users_realm_delivery_email')
      .unique()
      .on('users')
      .columns(['realm_id', 'delivery_email'])
      .execute();

    await withId(db.schema.createTable('user_groups'), dialect)
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('is_system_group', 'integer', flag)
      .addColumn('deactivated', 'integer', flag)
      .addColumn('role_limit', 'integer')
      .addColumn('date_created', 'bigint', (c) => c.notNull())
      .addColumn('creator_id', 'integer')
      .addColumn('can_mention_group', 'integer')
      .execute();
    await db.schema.createIndex('user_groups_realm_name').unique().on('user_groups').columns(['realm_id', 'name']).execute();
    await db.schema
      .createTable('user_group_members')
      .addColumn('group_id', 'integer', (c) => c.notNull().references('user_groups.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addPrimaryKeyConstraint('user_group_members_pk', ['group_id', 'user_id'])
      .execute();
    await db.schema.createIndex('user_group_members_user').on('user_group_members').column('user_id').execute();
    await db.schema
      .createTable('user_group_subgroups')
      .addColumn('group_id', 'integer', (c) => c.notNull().references('user_groups.id'))
      .addColumn('subgroup_id', 'integer', (c) => c.notNull().references('user_groups.id'))
      .addPrimaryKeyConstraint('user_group_subgroups_pk', ['group_id', 'subgroup_id'])
      .execute();

    await withId(db.schema.createTable('streams'), dialect)
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('rendered_description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('date_created', 'bigint', (c) => c.notNull())
      .addColumn('deactivated', 'integer', flag)
      .addColumn('invite_only', 'integer', flag)
      .addColumn('is_web_public', 'integer', flag)
      .addColumn('history_public_to_subscribers', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('stream_post_policy', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('message_retention_days', 'integer')
      .addColumn('can_remove_subscribers_group_id', 'integer', (c) => c.notNull())
      .addColumn('first_message_id', 'integer')
      .addColumn('recipient_id', 'integer')
      .addColumn('creator_id', 'integer')
      .execute();
    await db.schema
      .createIndex('streams_realm_name')
      .unique()
      .on('streams')
      .expression(sql`realm_id, lower(name)`)
      .execute();

    await db.schema
      .createTable('default_streams')
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('stream_id', 'integer', (c) => c.notNull().references('streams.id'))
      .addPrimaryKeyConstraint('default_streams_pk', ['realm_id', 'stream_id'])
      .execute();

    await withId(db.schema.createTable('recipients'), dialect)
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id'))
      .addColumn('type', 'integer', (c) => c.notNull())
      .addColumn('stream_id', 'integer')
      .addColumn('dm_key', 'text')
      .execute();
    await db.schema.createIndex('recipients_dm').unique().on('recipients').columns(['realm_id', 'dm_key']).execute();
    await db.schema.createIndex('recipients_stream').on('recipients').column('stream_id').execute();

    await withId(db.schema.createTable('subscriptions'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('stream_id', 'integer', (c) => c.notNull().references('streams.id'))
      .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('is_muted', 'integer', flag)
      .addColumn('pin_to_top', 'integer', flag)
      .addColumn('color', 'text', (c) => c.notNull())
      .addColumn('desktop_notifications', 'integer')
      .addColumn('email_notifications', 'integer')
      .addColumn('push_notifications', 'integer')
      .addColumn('audible_notifications', 'integer')
      .addColumn('wildcard_mentions_notify', 'integer')
      .execute();
    await db.schema.createIndex('subscriptions_user_stream').unique().on('subscriptions').columns(['user_id', 'stream_id']).execute();
    await db.schema.createIndex('subscriptions_stream').on('subscriptions').columns(['stream_id', 'active']).execute();

    await withId(db.schema.createTable('messages'), dialect)
      .addColumn('realm_id', 'integer', (c) => c.notNull())
      .addColumn('sender_id', 'integer', (c) => c.notNull())
      .addColumn('recipient_id', 'integer', (c) => c.notNull())
      .addColumn('stream_id', 'integer')
      .addColumn('topic', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('rendered_content', 'text', (c) => c.notNull())
      .addColumn('rendered_content_version', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('date_sent', 'bigint', (c) => c.notNull())
      .addColumn('last_edit_time', 'bigint')
      .addColumn('edit_history', 'text')
      .addColumn('client', 'text', (c) => c.notNull().defaultTo('API'))
      .addColumn('is_me_message', 'integer', flag)
      .addColumn('has_link', 'integer', flag)
      .addColumn('has_attachment', 'integer', flag)
      .addColumn('has_image', 'integer', flag)
      .execute();
    await db.schema.createIndex('messages_recipient_id').on('messages').columns(['recipient_id', 'id']).execute();
    await db.schema
      .createIndex('messages_stream_topic_id')
      .on('messages')
      .expression(sql`stream_id, lower(topic), id`)
      .execute();
    await db.schema.createIndex('messages_sender_id').on('messages').columns(['sender_id', 'id']).execute();

    await db.schema
      .createTable('user_messages')
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('message_id', 'integer', (c) => c.notNull())
      .addColumn('flags', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('user_messages_pk', ['user_id', 'message_id'])
      .execute();
    await db.schema.createIndex('user_messages_message').on('user_messages').column('message_id').execute();
    // Unread messages are a small, hot subset: a partial index keeps counting them cheap.
    await db.schema
      .createIndex('user_messages_unread')
      .on('user_messages')
      .columns(['user_id', 'message_id'])
      .where(sql<boolean>`(flags & 1) = 0`)
      .execute();
  },
};
