// Bulk writers for bench/generate.ts: rows of the schema's tables into an SQLite file (one
// prepared statement per table, large transactions, no journal while loading) or a PostgreSQL
// database (multi-row inserts; user_messages through unnest() arrays, which PostgreSQL takes
// nearly as fast as COPY). Column lists come from the schema types through Kysely's compiler.
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql, type Insertable } from 'kysely';
import type { Database } from '../src/db/schema.ts';
import { registerSqliteFunctions } from '../src/db/database.ts';

export type Table = keyof Database;
export type Row<T extends Table> = Insertable<Database[T]>;

export interface Writer {
  add<T extends Table>(table: T, row: Row<T>): void;
  /** The hot table, without an object per row. */
  userMessage(userId: number, messageId: number, flags: number): void;
  /** Ends a batch: commits (SQLite) or sends the buffered rows (PostgreSQL). */
  flush(): Promise<void>;
  /** Runs a statement after flushing. */
  exec(text: string): Promise<void>;
  close(): Promise<void>;
}

export function sqliteWriter(file: string): Writer {
  const db = new SQLite(file);
  registerSqliteFunctions(db); // indexes on lower() use the app's Unicode lower()
  // A bulk load into a file nobody else uses: if it fails half way, the file is thrown away. So
  // no write-ahead log (pages would be written twice); OFF is refused (defensive mode), MEMORY not.
  if (db.pragma('journal_mode = MEMORY', { simple: true }) !== 'memory') throw new Error('could not leave WAL mode for the bulk load');
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = OFF');
  db.pragma('locking_mode = EXCLUSIVE');
  db.pragma('cache_size = -1000000');
  db.pragma('temp_store = MEMORY');
  const compiler = new Kysely<Database>({ dialect: new SqliteDialect({ database: db }) });
  const statements = new Map<string, SQLite.Statement>();
  const statement = (table: Table, row: object): SQLite.Statement => {
    const key = `${table}:${Object.keys(row).join(',')}`;
    let s = statements.get(key);
    if (!s) {
      s = db.prepare(compiler.insertInto(table).values(row as never).compile().sql);
      statements.set(key, s);
    }
    return s;
  };
  // Many rows a statement: one call into SQLite for 100 rows costs much less than 100 calls.
  const ROWS = 100;
  const oneRow = 'insert into user_messages (user_id, message_id, flags) values (?, ?, ?)';
  const userMessage = db.prepare(oneRow);
  const userMessages = db.prepare(oneRow + ', (?, ?, ?)'.repeat(ROWS - 1));
  const pending: number[] = [];
  const drain = () => {
    for (let i = 0; i < pending.length; i += 3) userMessage.run(pending[i], pending[i + 1], pending[i + 2]);
    pending.length = 0;
  };
  db.exec('begin');
  return {
    add(table, row) {
      statement(table, row).run(Object.values(row));
    },
    userMessage(userId, messageId, flags) {
      pending.push(userId, messageId, flags);
      if (pending.length === ROWS * 3) {
        userMessages.run(pending);
        pending.length = 0;
      }
    },
    async flush() {
      drain();
      db.exec('commit');
      db.exec('begin');
    },
    async exec(text) {
      await this.flush();
      db.exec(text);
    },
    async close() {
      drain();
      db.exec('commit');
      db.pragma('locking_mode = NORMAL');
      db.pragma('journal_mode = WAL'); // as openDatabase leaves it
      db.close();
      await compiler.destroy().catch(() => undefined);
    },
  };
}

export function postgresWriter(url: string): Writer {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const k = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const buffers = new Map<Table, object[]>();
  let um: [number[], number[], number[]] = [[], [], []];
  // Tables in the order their rows must land (messages before what refers to them).
  const order: Table[] = ['users', 'streams', 'recipients', 'subscriptions', 'presence', 'messages', 'reactions'];
  const flush = async (): Promise<void> => {
    for (const table of [...order, ...[...buffers.keys()].filter((t) => !order.includes(t))]) {
      const rows = buffers.get(table) ?? [];
      buffers.delete(table);
      if (rows.length === 0) continue;
      // PostgreSQL takes at most 65,535 parameters a statement.
      const per = Math.floor(60_000 / Object.keys(rows[0]!).length);
      for (let i = 0; i < rows.length; i += per) await k.insertInto(table).values(rows.slice(i, i + per) as never).execute();
    }
    if (um[0].length > 0) {
      const [u, m, f] = um;
      um = [[], [], []];
      await sql`insert into user_messages (user_id, message_id, flags) select * from unnest(${u}::int[], ${m}::int[], ${f}::int[])`.execute(k);
    }
  };
  return {
    add(table, row) {
      let list = buffers.get(table);
      if (!list) buffers.set(table, (list = []));
      list.push(row);
    },
    userMessage(userId, messageId, flags) {
      um[0].push(userId);
      um[1].push(messageId);
      um[2].push(flags);
    },
    flush,
    async exec(text) {
      await flush();
      await sql.raw(text).execute(k);
    },
    async close() {
      await flush();
      await k.destroy();
    },
  };
}
