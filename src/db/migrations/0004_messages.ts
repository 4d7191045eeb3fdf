// Reactions, and the full-text search index over message topics and contents (SQLite FTS5 or a
// PostgreSQL tsvector expression index, per dialect).
import { sql, type Kysely } from 'kysely';
import { withId, type Migration } from './util.ts';

export const migration: Migration = {
  name: '0004_messages',
  async up(db: Kysely<unknown>, dialect) {
    await withId(db.schema.createTable('reactions'), dialect)
      .addColumn('message_id', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('emoji_name', 'text', (c) => c.notNull())
      .addColumn('emoji_code', 'text', (c) => c.notNull())
      .addColumn('reaction_type', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('reactions_unique')
      .unique()
      .on('reactions')
      .columns(['message_id', 'user_id', 'reaction_type', 'emoji_code'])
      .execute();

    // Stream narrows walk a stream's messages by ID (the core index has the topic in between).
    await db.schema.createIndex('messages_stream_id').on('messages').columns(['stream_id', 'id']).execute();

    if (dialect === 'sqlite') {
      // External-content FTS5 table kept in step with messages by triggers, so every writer
      // (sending, editing, deleting, bulk loads) updates the index without knowing about it.
      await sql`CREATE VIRTUAL TABLE messages_fts USING fts5(topic, content, content='messages', content_rowid='id', tokenize='porter unicode61')`.execute(db);
      await sql`CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts(rowid, topic, content) VALUES (new.id, new.topic, new.content);
      END`.execute(db);
      await sql`CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts(messages_fts, rowid, topic, content) VALUES ('delete', old.id, old.topic, old.content);
      END`.execute(db);
      await sql`CREATE TRIGGER messages_fts_update AFTER UPDATE OF topic, content ON messages BEGIN
        INSERT INTO messages_fts(messages_fts, rowid, topic, content) VALUES ('delete', old.id, old.topic, old.content);
        INSERT INTO messages_fts(rowid, topic, content) VALUES (new.id, new.topic, new.content);
      END`.execute(db);
      await sql`INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')`.execute(db);
    } else {
      // The same expression appears in the search query (db/queries/search.ts).
      await sql`CREATE INDEX messages_search ON messages USING gin (to_tsvector('english'::regconfig, topic || ' ' || content))`.execute(db);
    }
  },
};
