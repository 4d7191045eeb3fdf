// Secrets the server makes for itself and all its processes share (the image proxy's signing
// key), kept in the database so that several processes and restarts agree on them.
import type { Kysely } from 'kysely';
import type { Migration } from './util.ts';

export const migration: Migration = {
  name: '0012_server_secrets',
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('server_secrets')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
};
