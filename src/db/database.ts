// Opens the database (SQLite by default, PostgreSQL with DATABASE_URL) and runs migrations.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql, type Transaction } from 'kysely';
import type { Database } from './schema.ts';
import { migrations } from './migrations/index.ts';
import type { Dialect } from './migrations/util.ts';

export type { Dialect };
export type Tx = Transaction<Database>;
export type Conn = Kysely<Database>;

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

// PostgreSQL returns bigint (int8) and numeric as strings; our values fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export interface OpenOptions {
  dataDir: string;
  databaseUrl: string | null;
}

export async function openDatabase(opts: OpenOptions): Promise<Db> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection the server closed (restart, failover) is replaced on next use; it must
    // not take the process down as an unhandled error.
    pool.on('error', (err) => process.emitWarning(`PostgreSQL connection lost: ${err.message}`));
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const db: Db = { kysely, dialect: 'postgres', close: () => kysely.destroy() };
    await migrate(db);
    return db;
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const file = new SQLite(path.join(opts.dataDir, 'parley.db'));
  file.pragma('journal_mode = WAL');
  // FULL: a commit is fsynced before the request that made it is answered.
  file.pragma('synchronous = FULL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  registerSqliteFunctions(file);
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: file }) });
  const db: Db = { kysely, dialect: 'sqlite', close: () => kysely.destroy() };
  await migrate(db);
  return db;
}

/**
 * SQLite's built-in lower() folds only ASCII letters, while PostgreSQL's and JavaScript's fold all
 * of Unicode: names and topics compare case-insensitively through lower(), so 'Ärger' must fold
 * the same way on both databases (and match the toLowerCase() of the values we compare with).
 * Every connection to a Parley SQLite file registers this before using it.
 */
export function registerSqliteFunctions(file: SQLite.Database): void {
  file.function('lower', { deterministic: true }, (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v));
}

/** Applies the migrations not yet applied, each in its own transaction. */
export async function migrate(db: Db): Promise<void> {
  type MigrationsDb = Kysely<{ parley_migrations: { name: string; applied_at: number } }>;
  // One connection throughout, so that PostgreSQL's advisory lock is held where it was taken.
  await (db.kysely as unknown as MigrationsDb).connection().execute(async (k) => {
    if (db.dialect === 'postgres') {
      // Several processes may start at once: one migrates, the others wait for it.
      await sql`select pg_advisory_lock(7158)`.execute(k);
    }
    try {
      await k.schema
        .createTable('parley_migrations')
        .ifNotExists()
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('applied_at', 'bigint', (c) => c.notNull())
        .execute();
      const done = new Set((await k.selectFrom('parley_migrations').select('name').execute()).map((r) => r.name));
      for (const m of migrations) {
        if (done.has(m.name)) continue;
        await k.transaction().execute(async (tx) => {
          await m.up(tx as unknown as Kysely<unknown>, db.dialect);
          await tx.insertInto('parley_migrations').values({ name: m.name, applied_at: Math.floor(Date.now() / 1000) }).execute();
        });
      }
    } finally {
      if (db.dialect === 'postgres') await sql`select pg_advisory_unlock(7158)`.execute(k);
    }
  });
}
