// SQLite: a sent message's user_messages rows, stored with the send and moved into user_messages
// in batches (see src/db/pending-user-messages.ts). PostgreSQL writes them in the send itself.
import { sql, type Kysely } from 'kysely';
import type { Migration } from './util.ts';

export const migration: Migration = {
  name: '0017_pending_user_messages',
  async up(db: Kysely<unknown>, dialect) {
    if (dialect !== 'sqlite') return;
    // recipients: a JSON array, one number per recipient: user ID * 65536 + flags.
    await sql`create table pending_user_messages (message_id integer primary key, recipients text not null)`.execute(db);
  },
};
