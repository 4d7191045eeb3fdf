// SQLite: the write count of migration 0019 also counts writes to the tables whose rows sends
// now keep besides subscribers (src/db/kept.ts): the realm's linkifiers and who muted whom, so
// that another connection's write to them is seen as well.
import { sql, type Kysely } from 'kysely';
import type { Migration } from './util.ts';

export const migration: Migration = {
  name: '0020_write_counts_kept',
  async up(db: Kysely<unknown>, dialect) {
    if (dialect !== 'sqlite') return;
    for (const table of ['realm_linkifiers', 'muted_users']) {
      for (const op of ['insert', 'update', 'delete']) {
        await sql.raw(`create trigger ${table}_${op}_counted after ${op} on ${table} begin update write_counts set n = n + 1; end`).execute(db);
      }
    }
  },
};
