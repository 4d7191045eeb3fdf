// Opens the database (SQLite by default, PostgreSQL with DATABASE_URL) and runs migrations.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type pgTypes from 'pg';
import {
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type QueryResult,
  type SqliteDatabase,
  type SqliteStatement,
  type Transaction,
} from 'kysely';
import type { Database } from './schema.ts';
import { migrations } from './migrations/index.ts';
import { WRITE_COUNTS_TABLE } from './migrations/0019_write_counts.ts';
import type { Dialect } from './migrations/util.ts';
import { lazy } from '../lazy.ts';
import { IdentitySync } from './identity-sync.ts';
import { Checkpointer } from './checkpoint.ts';
import { WalSync } from './wal-sync.ts';
import { configureConnection } from './connection.ts';
import { NAMES_DEFERRED, PENDING_TABLE, PendingUserMessages } from './pending-user-messages.ts';

export { registerSqliteFunctions } from './connection.ts';

export type { Dialect };
export type Tx = Transaction<Database>;
export type Conn = Kysely<Database>;

export const isSqlite = (db: Conn | Tx): boolean => db.getExecutor().adapter instanceof SqliteAdapter;

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
  /**
   * A count that grows with every statement this process runs that may write the users or
   * realms tables or end sessions, and with every such write of another connection or process
   * (SQLite: counted by triggers, migration 0019; PostgreSQL: through Redis, identity-sync.ts).
   * While it stays the same, a user, realm or session read earlier is still current, so
   * authentication may keep it. It returns null while such writes might go unseen (PostgreSQL
   * while not listening to Redis); the function is null where they always might (PostgreSQL
   * without Redis).
   */
  identityWrites: (() => number | null) | null;
  /**
   * The same for what sends keep (kept.ts: streams, subscriptions and subscribers, linkifiers,
   * who muted whom): a count that grows with every statement of this process that may write
   * subscriptions, users, streams, realms, realm_linkifiers or muted_users, with every rollback
   * of a transaction that may have written them (its own reads saw what it undid), and with
   * every write of another connection or process to those tables (SQLite: counted by triggers;
   * PostgreSQL: through Redis, as identityWrites, with which it shares its count). Null when and
   * where identityWrites is.
   */
  keptWrites: (() => number | null) | null;
  /**
   * Resolves once everything this process has committed is on disk. PostgreSQL's commit is
   * durable already; on SQLite the write-ahead log is flushed off the event loop, one flush for
   * all the commits made while the previous one ran. Call before acknowledging a write.
   */
  sync(): Promise<void>;
  /**
   * SQLite: while writers hold back so that a checkpoint can copy the whole log and the log can
   * start over (checkpoint.ts), a promise of the hold's end; actions wait for it before their
   * transactions begin. Null otherwise, and always on PostgreSQL.
   */
  writesHeld(): Promise<void> | null;
  /** SQLite: the sends' deferred user_messages rows (pending-user-messages.ts). Null on PostgreSQL. */
  pendingRows(): PendingUserMessages | null;
  /**
   * SQLite's connection for a synchronous select through a kept prepared statement, skipping the
   * query builder and its asynchronous executor (most of a one-row read's cost); for the hot
   * paths. Null on PostgreSQL, and while a transaction holds the connection: its uncommitted rows
   * must not be read outside it (Kysely's read waits for the commit instead).
   */
  direct(): DirectReads | null;
  /**
   * PostgreSQL: a select run as a prepared statement of the connection that takes it (prepared
   * once per connection), skipping the query builder, for the hot paths; `$1` placeholders. Null
   * on SQLite (use `direct`). Outside any transaction.
   */
  prepared: (<T>(text: string, params: readonly unknown[]) => Promise<T[]>) | null;
}

/** Synchronous selects (SQLite): `?` placeholders, values as SQLite takes them (0/1 booleans). */
export interface DirectReads {
  get<T>(text: string, params: readonly unknown[]): T | undefined;
  all<T>(text: string, params: readonly unknown[]): T[];
}

/** A transaction's direct statements (SQLite): its reads, and writes through the same kept statements. */
export interface DirectStatements extends DirectReads {
  /** A statement that writes: the rows it changed and the last row ID it inserted. */
  run(text: string, params: readonly unknown[]): { changes: number; lastInsertRowid: number };
}

/**
 * Each Db by its query builders' adapter: the app's builder (`db.kysely`) and those of its
 * transactions share one, so a query function handed either finds its Db (`dbOf`,
 * `directReads`). A transaction's direct statements are SQLite's only.
 */
const dbOfAdapter = new WeakMap<object, { db: Db; inTransaction: () => DirectStatements | null }>();

function entryOf(q: Conn | Tx): { db: Db; inTransaction: () => DirectStatements | null } | undefined {
  return dbOfAdapter.get(q.getExecutor().adapter);
}

/** The Db whose query builder (the app's or a transaction's) this is; null for any other builder. */
export function dbOf(q: Conn | Tx): Db | null {
  return entryOf(q)?.db ?? null;
}

/**
 * Synchronous kept-statement reads for a query function handed a query builder, on SQLite: the
 * app's own (`db.kysely`) reads as Db.direct does (never while a transaction holds the
 * connection); a transaction's reads in that transaction, its own writes included (the one
 * connection runs one transaction at a time, and the builder is used only while it is open).
 * Null on PostgreSQL, which keeps the query builder.
 */
export function directReads(q: Conn | Tx): DirectReads | null {
  const entry = entryOf(q);
  if (!entry) return null;
  return q.isTransaction ? entry.inTransaction() : entry.db.direct();
}

/**
 * A transaction's synchronous kept statements, writes included, on SQLite (null on PostgreSQL,
 * and for the app's builder outside a transaction: writes belong in actions). A write through
 * them counts as Kysely's do (the log's flush, the identity and subscriber counts, the deferred
 * rows): they share the kept statements.
 */
export function directStatements(tx: Tx): DirectStatements | null {
  return tx.isTransaction ? (entryOf(tx)?.inTransaction() ?? null) : null;
}

const loadPg = lazy<typeof pgTypes>('pg');
let pgReady = false;

/** The `pg` package, loaded when a PostgreSQL database is first used. */
export function postgres(): typeof pgTypes {
  const pg = loadPg();
  if (!pgReady) {
    // PostgreSQL returns bigint (int8) and numeric as strings; our values fit in a double.
    pg.types.setTypeParser(20, (v) => Number(v));
    pg.types.setTypeParser(1700, (v) => Number(v));
    pgReady = true;
  }
  return pg;
}

export interface OpenOptions {
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL: with Redis, identity writes are announced to every process (identity-sync.ts). */
  redisUrl?: string | null;
  redisPrefix?: string;
}

export interface MigrateOptions {
  /** Only these migrations (a restore brings back the schema its data was exported from). */
  migrations?: ReadonlySet<string>;
}

export async function openDatabase(opts: OpenOptions, migrateOpts: MigrateOptions = {}): Promise<Db> {
  if (opts.databaseUrl) {
    const pool = new (postgres().Pool)({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection the server closed (restart, failover) is replaced on next use; it must
    // not take the process down as an unhandled error.
    pool.on('error', (err) => process.emitWarning(`PostgreSQL connection lost: ${err.message}`));
    const identity = opts.redisUrl ? new IdentitySync(opts.redisUrl, opts.redisPrefix ?? 'parley') : null;
    const kysely = new Kysely<Database>({
      dialect: new PostgresDialect({ pool, onCreateConnection: identity ? async (c) => announceIdentityWrites(c, identity) : undefined }),
    });
    const db: Db = {
      kysely,
      dialect: 'postgres',
      close: async () => {
        await kysely.destroy();
        await identity?.close();
      },
      identityWrites: identity ? () => identity.version() : null,
      keptWrites: identity ? () => identity.version() : null,
      sync: () => Promise.resolve(),
      writesHeld: () => null,
      pendingRows: () => null,
      direct: () => null,
      prepared: preparedReads(pool),
    };
    dbOfAdapter.set(kysely.getExecutor().adapter, { db, inTransaction: () => null });
    try {
      await identity?.start();
      await migrate(db, migrateOpts);
    } catch (err) {
      await db.close();
      throw err;
    }
    return db;
  }
  fs.mkdirSync(opts.dataDir, { recursive: true });
  const file = new SQLite(path.join(opts.dataDir, 'parley.db'));
  configureConnection(file);
  const checkpoints = new Checkpointer({
    file: file.name,
    inTransaction: () => file.inTransaction,
    onFailure: (err) => {
      process.emitWarning(`${err.message}; checkpoints run in commits again`);
      if (file.open) file.pragma('wal_autocheckpoint = 1000');
    },
  });
  const wal = new WalSync(`${file.name}-wal`);
  const statements = new StatementCache(file, () => wal.written());
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
  // Another connection's writes to the tables whose rows are kept in memory (a CLI command's,
  // say) move the count of migration 0019's triggers. It is read once per turn of the event
  // loop (a commit elsewhere is seen from the next turn on), and each time it is not what it was
  // `others` grows: a rollback of this connection's own counted writes takes the count back, and
  // what was kept while they were in force must not look current again.
  let writeCount: SQLite.Statement | null = null;
  let lastCount: unknown = null;
  let otherWrites = 0;
  let readThisTurn = false;
  const others = (): number => {
    if (!readThisTurn) {
      readThisTurn = true;
      setImmediate(() => (readThisTurn = false));
      writeCount ??= file.prepare(`select n from ${WRITE_COUNTS_TABLE}`).pluck();
      const n = writeCount.get();
      if (n !== lastCount) {
        if (lastCount !== null) otherWrites++;
        lastCount = n;
      }
    }
    return otherWrites;
  };
  const identityWrites = () => statements.identityWrites + others();
  const keptWrites = () => statements.keptWrites + others();
  const reads = statements.directReads();
  const inTransaction = statements.directStatements();
  const db: Db = {
    kysely,
    dialect: 'sqlite',
    identityWrites,
    keptWrites,
    sync: () => {
      checkpoints.committed();
      return wal.sync();
    },
    writesHeld: () => checkpoints.held() ?? statements.pending?.moving() ?? null,
    pendingRows: () => statements.pending,
    direct: () => (file.inTransaction ? null : reads),
    prepared: null,
    close: async () => {
      // A clean stop leaves nothing pending (a file copied or moved elsewhere is whole).
      await statements.pending?.close();
      if (file.open && !file.inTransaction) statements.pending?.beforeStatement();
      await checkpoints.close();
      await kysely.destroy();
      await wal.close();
    },
  };
  dbOfAdapter.set(kysely.getExecutor().adapter, { db, inTransaction: () => (file.inTransaction ? inTransaction : null) });
  await migrate(db, migrateOpts);
  // From here on a statement that names user_messages or the full-text index first moves what
  // sends left pending, beginning with anything a stop left behind.
  statements.pending = new PendingUserMessages(file, () => checkpoints.held());
  statements.pending.beforeStatement();
  return db;
}

/** Statements other than plain selects may write. */
const MAY_WRITE = (text: string) => !/^\s*select\b/i.test(text);
/**
 * The statement of `touchSession` (queries/sessions.ts), which only makes a session live longer:
 * what authentication kept of the session stays valid (it reads a session again when it is due
 * to be touched), so a touch, written on every session once a minute, drops nothing.
 */
const SESSION_TOUCH = /^update "sessions" set "last_used_at" = (\?|\$1), "expires_at" = (\?|\$2) where "token_hash" = (\?|\$3)$/;
/** A statement that may change what authentication keeps: users, realms or sessions rows. */
const IDENTITY_WRITE = (text: string) => MAY_WRITE(text) && /\b(users|realms|sessions)\b/i.test(text) && !SESSION_TOUCH.test(text);
/** A statement that may change what sends keep (Db.keptWrites). */
const KEPT_WRITE = (text: string) => MAY_WRITE(text) && /\b(subscriptions|users|streams|realms|realm_linkifiers|muted_users)\b/i.test(text);
/** SQLite counts rollbacks as writes of what is kept (Db.keptWrites). */
const KEPT_WRITE_OR_ROLLBACK = (text: string) => KEPT_WRITE(text) || /^\s*rollback\b/i.test(text);

/** Db.prepared: a name per SQL text, so that each connection prepares a text once. */
function preparedReads(pool: pgTypes.Pool): Db['prepared'] {
  const names = new Map<string, string>();
  return async <T>(text: string, params: readonly unknown[]): Promise<T[]> => {
    let name = names.get(text);
    if (name === undefined) {
      if (MAY_WRITE(text)) throw new Error(`Not a select: ${text}`);
      names.set(text, (name = `parley_${names.size + 1}`));
    }
    const result = await pool.query<T & pgTypes.QueryResultRow>({ name, text, values: params as unknown[] });
    return result.rows;
  };
}

/**
 * PostgreSQL: each connection tells `identity` of its writes to what is kept (identity writes
 * and those of what sends keep: Db.identityWrites, Db.keptWrites). A statement outside a transaction
 * returns once every process has dropped what it kept. In a transaction, the first such write
 * makes this process keep nothing until the transaction ends (its own reads see what it wrote,
 * which other transactions must not be served); its commit returns once every process has
 * dropped what it kept, and a rollback drops what this process kept.
 */
function announceIdentityWrites(connection: DatabaseConnection, identity: IdentitySync): void {
  const run = connection.executeQuery.bind(connection);
  let inTransaction = false;
  let wrote = false;
  connection.executeQuery = async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
    const text = query.sql;
    if (/^(begin|start transaction)\b/i.test(text)) {
      inTransaction = true;
      wrote = false;
    } else if (text === 'commit' || text === 'rollback') {
      let committed = false;
      try {
        const result = await run<R>(query);
        committed = text === 'commit';
        return result;
      } finally {
        inTransaction = false;
        if (wrote) {
          wrote = false;
          await identity.transactionEnded(committed);
        }
      }
    } else if (IDENTITY_WRITE(text) || KEPT_WRITE(text)) {
      if (!inTransaction) {
        try {
          return await run<R>(query);
        } finally {
          await identity.changed();
        }
      }
      if (!wrote) identity.transactionWrites();
      wrote = true;
    }
    return run<R>(query);
  };
}

/**
 * The SQLite connection as Kysely sees it. Kysely prepares every query it runs, and preparing
 * costs more than running most of ours; the same few hundred SQL texts come back all the time,
 * so their prepared statements are kept (the least recently used dropped past a bound). SQLite
 * re-prepares a kept statement itself when the schema changes under it.
 *
 * It also tells `written` of every run of a statement that may write, and counts those that may
 * write users or realms (`Db.identityWrites`) or what sends keep (`Db.keptWrites`).
 */
class StatementCache implements SqliteDatabase {
  identityWrites = 0;
  keptWrites = 0;
  /** Set once the schema is migrated: see pending-user-messages.ts. */
  pending: PendingUserMessages | null = null;
  readonly #file: SQLite.Database;
  readonly #written: () => void;
  readonly #max: number;
  readonly #cache = new Map<string, KeptStatement>();

  constructor(file: SQLite.Database, written: () => void, max = 2000) {
    this.#file = file;
    this.#written = written;
    this.#max = max;
  }

  close(): void {
    this.#file.close();
  }

  prepare(text: string): SqliteStatement {
    let kept = this.#cache.get(text);
    if (kept) {
      this.#cache.delete(text);
    } else {
      kept = { statement: this.#compile(text), namesDeferred: NAMES_DEFERRED(text), mayWrite: MAY_WRITE(text), addsPending: ADDS_PENDING.test(text) };
      if (this.#cache.size >= this.#max) this.#cache.delete(this.#cache.keys().next().value!);
    }
    this.#cache.set(text, kept);
    // Whoever runs a statement prepares it just before (synchronously): the rows are in place,
    // and no part of the worker's is being written when it writes.
    if (kept.namesDeferred) this.pending?.beforeStatement();
    else if (kept.mayWrite) this.pending?.beforeWrite();
    if (kept.addsPending) this.pending?.added();
    return kept.statement;
  }

  /** Reads through the same kept statements; only selects, so that no write goes uncounted. */
  directReads(): DirectReads {
    const select = (text: string) => {
      if (MAY_WRITE(text)) throw new Error(`Not a select: ${text}`);
      return this.prepare(text) as unknown as SQLite.Statement;
    };
    return {
      get: <T>(text: string, params: readonly unknown[]) => select(text).get(...params) as T | undefined,
      all: <T>(text: string, params: readonly unknown[]) => select(text).all(...params) as T[],
    };
  }

  /** Reads and writes through the kept statements, each write counted as Kysely's are (#compile). */
  directStatements(): DirectStatements {
    const reads = this.directReads();
    return {
      ...reads,
      run: (text, params) => {
        if (!MAY_WRITE(text)) throw new Error(`Not a write: ${text}`);
        const r = this.prepare(text).run(params);
        return { changes: Number(r.changes), lastInsertRowid: Number(r.lastInsertRowid) };
      },
    };
  }

  #compile(text: string): SqliteStatement {
    const stmt = this.#file.prepare(text);
    if (!MAY_WRITE(text)) return stmt as unknown as SqliteStatement;
    const identity = IDENTITY_WRITE(text);
    const kept = KEPT_WRITE_OR_ROLLBACK(text);
    const wrote = () => {
      this.#written();
      if (identity) this.identityWrites++;
      if (kept) this.keptWrites++;
    };
    return {
      reader: stmt.reader,
      all: (params) => {
        try {
          return stmt.all(params as unknown[]);
        } finally {
          wrote();
        }
      },
      run: (params) => {
        try {
          return stmt.run(params as unknown[]) as ReturnType<SqliteStatement['run']>;
        } finally {
          wrote();
        }
      },
      iterate: (params) => {
        wrote();
        return stmt.iterate(params as unknown[]);
      },
    };
  }
}

interface KeptStatement {
  statement: SqliteStatement;
  /** Reads or writes user_messages or the full-text index: what is pending moves first. */
  namesDeferred: boolean;
  /** May write (or begins a transaction, which may). */
  mayWrite: boolean;
  /** Stores a send's rows as pending: they move soon. */
  addsPending: boolean;
}

const ADDS_PENDING = new RegExp(`^insert into "?${PENDING_TABLE}\\b`, 'i');

/** Applies the migrations not yet applied, each in its own transaction. */
export async function migrate(db: Db, opts: MigrateOptions = {}): Promise<void> {
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
        if (done.has(m.name) || (opts.migrations && !opts.migrations.has(m.name))) continue;
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
