// SQLite's lower() now folds all of Unicode (see registerSqliteFunctions): the indexes on lower()
// built with the ASCII-only built-in are rebuilt, so that they agree with the queries.
import { sql, type Kysely } from 'kysely';
import type { Migration } from './util.ts';

const LOWER_INDEXES = [
  'streams_realm_name',
  'messages_stream_topic_id',
  'custom_profile_fields_realm_name',
  'alert_words_user_word',
  'user_topics_user_stream_topic',
];

export const migration: Migration = {
  name: '0010_hardening',
  async up(db: Kysely<unknown>, dialect) {
    if (dialect !== 'sqlite') return;
    for (const name of LOWER_INDEXES) await sql`reindex ${sql.id(name)}`.execute(db);
  },
};
