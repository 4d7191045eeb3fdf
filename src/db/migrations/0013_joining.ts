// Joining an organization: invitations and sign-up confirmations (one row per link), the email
// domains of open sign-up, and password reset tokens.
//
// Invitations: Email invitations, reusable links and
// the confirmation links of open sign-up share the table (and so one id space, which the API's
// `id` + `is_multiuse` pair still names uniquely); `kind` tells them apart.
import type { Kysely } from 'kysely';
import { flag, withId, type Migration } from './util.ts';

export const migration: Migration = {
  name: '0013_joining',
  async up(db: Kysely<unknown>, dialect) {
    await withId(db.schema.createTable('invitations'), dialect)
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id').onDelete('cascade'))
      // The link's secret: 24 random base32 characters, as the reference's confirmation keys.
      .addColumn('key', 'text', (c) => c.notNull().unique())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('invited_by', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('invited_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint')
      .addColumn('invited_as', 'integer', (c) => c.notNull())
      .addColumn('stream_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('include_default_streams', 'integer', flag)
      .addColumn('notify_referrer', 'integer', flag)
      // 0 pending, 1 used (email invitations and confirmations are single use), 2 revoked.
      .addColumn('status', 'integer', flag)
      .execute();
    await db.schema.createIndex('invitations_realm').on('invitations').columns(['realm_id', 'status']).execute();

    await withId(db.schema.createTable('realm_domains'), dialect)
      .addColumn('realm_id', 'integer', (c) => c.notNull().references('realms.id').onDelete('cascade'))
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('allow_subdomains', 'integer', flag)
      .addUniqueConstraint('realm_domains_unique', ['realm_id', 'domain'])
      .execute();

    // Only the token's SHA-256 is kept, as for sessions: the database alone cannot reset a password.
    await db.schema
      .createTable('password_resets')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('password_resets_user').on('password_resets').columns(['user_id']).execute();
  },
};
