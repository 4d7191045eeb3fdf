// SQLite: a new message enters the full-text index with its user_messages rows, in the batches
// that move them (src/db/pending-user-messages.ts), instead of by a trigger in its send: FTS5
// writes a segment of its own for every transaction, and merges them, which was about a tenth of
// a send's CPU. `search_indexed` says how far the index has come: every message with an ID up to
// it is indexed as it is now, none above it is. Edits and deletions keep the index in step for
// the messages it holds; a message above the mark is indexed as it is when its turn comes.
import { sql, type Kysely } from 'kysely';
import type { Migration } from './util.ts';

export const migration: Migration = {
  name: '0018_search_index_later',
  async up(db: Kysely<unknown>, dialect) {
    if (dialect !== 'sqlite') return;
    await sql`create table search_indexed (up_to integer not null)`.execute(db);
    // Every message so far was indexed by the trigger this migration drops.
    await sql`insert into search_indexed (up_to) select coalesce(max(id), 0) from messages`.execute(db);
    await sql`drop trigger messages_fts_insert`.execute(db);
    await sql`drop trigger messages_fts_delete`.execute(db);
    await sql`drop trigger messages_fts_update`.execute(db);
    await sql`create trigger messages_fts_delete after delete on messages when old.id <= (select up_to from search_indexed) begin
        insert into messages_fts(messages_fts, rowid, topic, content) values ('delete', old.id, old.topic, old.content);
      end`.execute(db);
    await sql`create trigger messages_fts_update after update of topic, content on messages when old.id <= (select up_to from search_indexed) begin
        insert into messages_fts(messages_fts, rowid, topic, content) values ('delete', old.id, old.topic, old.content);
        insert into messages_fts(rowid, topic, content) values (new.id, new.topic, new.content);
      end`.execute(db);
  },
};
