// Starred messages are a small subset of a user's messages, read whole at every register
// (starred_messages): a partial index finds them without visiting each of the user's rows
// (a member of busy streams has hundreds of thousands). Its predicate is the one
// starredIds() filters on, word for word, which SQLite needs to choose it.
import { sql, type Kysely } from 'kysely';
import type { Migration } from './util.ts';

export const migration: Migration = {
  name: '0014_starred_index',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('user_messages_starred')
      .on('user_messages')
      .columns(['user_id', 'message_id'])
      .where(sql<boolean>`(flags & 2) <> 0`)
      .execute();
  },
};
