// The organization's uploaded icon: where it comes from ('G' the default, 'U' uploaded) and a
// version that changes with every upload or removal, so its URL changes and caches refetch.
import type { Kysely } from 'kysely';
import type { Migration } from './util.ts';

export const migration: Migration = {
  name: '0016_realm_icon',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('realms').addColumn('icon_source', 'text', (c) => c.notNull().defaultTo('G')).execute();
    await db.schema.alterTable('realms').addColumn('icon_version', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  },
};
