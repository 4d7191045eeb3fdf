// Browser sessions: a row per logged-in browser, found by the SHA-256 of the token in its cookie
// (the token itself is never stored), so that sessions survive restarts and serve every process.
import type { Kysely } from 'kysely';
import type { Migration } from './util.ts';

export const migration: Migration = {
  name: '0011_sessions',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('sessions')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('realm_id', 'integer', (c) => c.notNull())
      .addColumn('csrf_token', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').columns(['user_id']).execute();
    await db.schema.createIndex('sessions_expires').on('sessions').columns(['expires_at']).execute();
  },
};
