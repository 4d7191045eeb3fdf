// Per-user topic settings: muted, unmuted (in a muted stream) and followed topics.
import { sql, type Kysely } from 'kysely';
import { withId, type Migration } from './util.ts';

export const migration: Migration = {
  name: '0008_user_topics',
  async up(db: Kysely<unknown>, dialect) {
    await withId(db.schema.createTable('user_topics'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('stream_id', 'integer', (c) => c.notNull().references('streams.id'))
      .addColumn('topic_name', 'text', (c) => c.notNull())
      .addColumn('visibility_policy', 'integer', (c) => c.notNull())
      .addColumn('last_updated', 'bigint', (c) => c.notNull())
      .execute();
    // Topics compare case-insensitively, as message topics do.
    await db.schema
      .createIndex('user_topics_user_stream_topic')
      .unique()
      .on('user_topics')
      .expression(sql`user_id, stream_id, lower(topic_name)`)
      .execute();
    await db.schema.createIndex('user_topics_stream').on('user_topics').columns(['stream_id']).execute();
  },
};
