// SQLite: a count of the writes to the tables whose rows the server keeps in memory between
// requests (authentication's users, realms and sessions; the sends' subscribers of streams),
// kept by triggers, so that the server sees any other connection's write to them
// (src/db/database.ts). It watched `pragma data_version` instead, which moves at every commit of
// any other connection: since the pending user_messages rows move on a connection of their own
// (pending-user-messages.ts), many times a second, that dropped everything kept at every move.
// A session's touch (its last use and expiry) changes nothing kept, and is not counted.
import { sql, type Kysely } from 'kysely';
import type { Migration } from './util.ts';

export const WRITE_COUNTS_TABLE = 'write_counts';

export const migration: Migration = {
  name: '0019_write_counts',
  async up(db: Kysely<unknown>, dialect) {
    if (dialect !== 'sqlite') return;
    await sql`create table write_counts (n integer not null)`.execute(db);
    await sql`insert into write_counts (n) values (0)`.execute(db);
    const count = 'update write_counts set n = n + 1;';
    for (const table of ['users', 'realms', 'subscriptions', 'streams']) {
      for (const op of ['insert', 'update', 'delete']) {
        await sql.raw(`create trigger ${table}_${op}_counted after ${op} on ${table} begin ${count} end`).execute(db);
      }
    }
    await sql.raw(`create trigger sessions_delete_counted after delete on sessions begin ${count} end`).execute(db);
    await sql.raw(`create trigger sessions_update_counted after update of token_hash, user_id, realm_id, csrf_token on sessions begin ${count} end`).execute(db);
  },
};
