// The database half of `parley backup` and `parley restore`. SQLite is copied with SQLite's online
// backup into one file; PostgreSQL is exported table by table, as JSON lines of each column's text
// form, from one REPEATABLE READ transaction, and loaded back into an empty database whose schema
// comes from the same migrations the backup's database had applied.
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import { openDatabase, postgres } from './database.ts';
import { migrations } from './migrations/index.ts';

export interface TableExport {
  name: string;
  columns: string[];
  rows: number;
}

/** A backup or restore refused for a reason its message explains to the operator. */
export class BackupError extends Error {}

const BATCH = 1000;
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Copies `dataDir/parley.db` to `dest` while the server keeps writing. All pages are copied in one
 * step, so one read transaction sees the whole file: a snapshot that no commit made meanwhile can
 * restart (SQLite starts a backup over when another connection writes between its steps, which a
 * busy server would do forever). In WAL mode that read blocks no writer.
 */
export async function backupSqlite(dataDir: string, dest: string): Promise<{ migrations: string[] }> {
  const file = path.join(dataDir, 'parley.db');
  if (!fs.existsSync(file)) throw new BackupError(`No SQLite database at ${file}`);
  const source = new SQLite(file, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(dest, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
  const copy = new SQLite(dest, { fileMustExist: true });
  try {
    // The copy carries the source's WAL mode, and would grow -wal and -shm files beside it when
    // opened; as a plain file it stays one file (the server turns WAL on again when it opens it).
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`The copied database fails SQLite's check: ${String(check)}`);
    return { migrations: appliedSqlite(copy) };
  } finally {
    copy.close();
    await syncFile(dest);
  }
}

function appliedSqlite(file: SQLite.Database): string[] {
  return (file.prepare('select name from parley_migrations order by name').pluck().all() as string[]);
}

/** The migrations a backup names that this version of Parley does not know: made by a newer one. */
export function unknownMigrations(applied: string[]): string[] {
  const known = new Set(migrations.map((m) => m.name));
  return applied.filter((n) => !known.has(n));
}

/** Places a SQLite backup file as `dataDir/parley.db`: copied beside it, flushed, then renamed. */
export async function restoreSqlite(backupFile: string, dataDir: string): Promise<void> {
  const copy = new SQLite(backupFile, { readonly: true, fileMustExist: true });
  try {
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`${backupFile} fails SQLite's check: ${String(check)}`);
    const unknown = unknownMigrations(appliedSqlite(copy));
    if (unknown.length > 0) throw new BackupError(`The backup was made by a newer Parley (migrations ${unknown.join(', ')}): restore it with that version`);
  } finally {
    copy.close();
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const target = path.join(dataDir, 'parley.db');
  const partial = `${target}.restoring`;
  await fs.promises.copyFile(backupFile, partial);
  await syncFile(partial);
  await fs.promises.rename(partial, target);
  await syncFile(dataDir);
}

export async function syncFile(p: string): Promise<void> {
  const handle = await fs.promises.open(p, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes every table of the PostgreSQL database to `dir/<table>.jsonl`, one JSON array of the
 * columns' text forms (or null) a line, all read in one REPEATABLE READ transaction: a snapshot
 * of the moment its first statement ran. Generated columns are left out; they are computed again
 * when the rows are loaded.
 */
export async function backupPostgres(databaseUrl: string, dir: string): Promise<{ migrations: string[]; tables: TableExport[] }> {
  const client = new (postgres().Client)({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const names = (
      await client.query<{ table_name: string }>(
        "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name",
      )
    ).rows.map((r) => r.table_name);
    if (!names.includes('parley_migrations')) throw new BackupError('This PostgreSQL database holds no Parley data (no parley_migrations table)');
    const applied = (await client.query<{ name: string }>('select name from parley_migrations order by name')).rows.map((r) => r.name);
    const tables: TableExport[] = [];
    for (const name of names.filter((n) => n !== 'parley_migrations')) {
      const columns = await copiedColumns(client, name);
      const rows = await exportTable(client, name, columns, path.join(dir, `${name}.jsonl`));
      tables.push({ name, columns, rows });
    }
    await client.query('commit');
    return { migrations: applied, tables };
  } finally {
    await client.end();
  }
}

async function copiedColumns(client: pg.Client, table: string): Promise<string[]> {
  const { rows } = await client.query<{ column_name: string }>(
    "select column_name from information_schema.columns where table_schema = current_schema() and table_name = $1 and is_generated = 'NEVER' order by ordinal_position",
    [table],
  );
  return rows.map((r) => r.column_name);
}

async function exportTable(client: pg.Client, table: string, columns: string[], file: string): Promise<number> {
  const out = fs.createWriteStream(file);
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
  });
  const cursor = `parley_backup_${table}`;
  // Text forms make every type (bytea, arrays, jsonb, bigint) round-trip through its own parser.
  const select = columns.map((c) => `${quote(c)}::text`).join(', ');
  await client.query(`declare ${quote(cursor)} no scroll cursor for select ${select} from ${quote(table)}`);
  let count = 0;
  for (;;) {
    const { rows } = await client.query<unknown[]>({ text: `fetch ${BATCH} from ${quote(cursor)}`, rowMode: 'array' });
    if (rows.length === 0) break;
    const chunk = rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
    count += rows.length;
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await client.query(`close ${quote(cursor)}`);
  out.end();
  await done;
  await syncFile(file);
  return count;
}

/** Refuses a database that has any table: a restore never mixes with data already there. */
export async function checkPostgresEmpty(databaseUrl: string): Promise<void> {
  const client = new (postgres().Client)({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string }>(
      'select table_name from information_schema.tables where table_schema = current_schema() order by table_name limit 3',
    );
    if (rows.length > 0) {
      throw new BackupError(
        `The PostgreSQL database is not empty (it has tables: ${rows.map((r) => r.table_name).join(', ')}${rows.length === 3 ? ', ...' : ''}): restore into a new, empty database`,
      );
    }
  } finally {
    await client.end();
  }
}

/**
 * Loads an export made by backupPostgres into an empty database: the backup's migrations first
 * (those it did not have run when the server next starts, after the data is in), then every
 * table's rows in one transaction, then the ID sequences past the loaded IDs.
 */
export async function restorePostgres(databaseUrl: string, dir: string, applied: string[], tables: TableExport[]): Promise<void> {
  const unknown = unknownMigrations(applied);
  if (unknown.length > 0) throw new BackupError(`The backup was made by a newer Parley (migrations ${unknown.join(', ')}): restore it with that version`);
  await checkPostgresEmpty(databaseUrl);
  await (await openDatabase({ dataDir: dir, databaseUrl }, { migrations: new Set(applied) })).close();
  const client = new (postgres().Client)({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    // The rows were consistent when exported; foreign keys and triggers are not checked again
    // while tables are loaded in name order.
    await client.query("set local session_replication_role = 'replica'");
    for (const t of tables) {
      const present = new Set(await copiedColumns(client, t.name));
      const missing = t.columns.filter((c) => !present.has(c));
      if (missing.length > 0) throw new BackupError(`Table ${t.name} has no column ${missing.join(', ')} after the backup's migrations`);
      // Rows a migration inserted are in the backup too.
      await client.query(`delete from ${quote(t.name)}`);
      await loadTable(client, t, path.join(dir, `${t.name}.jsonl`));
      if (t.columns.includes('id')) {
        // setval of a null sequence (no serial id column) does nothing.
        await client.query(`select setval(pg_get_serial_sequence($1, 'id'), coalesce((select max(id) from ${quote(t.name)}), 0) + 1, false)`, [quote(t.name)]);
      }
    }
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}

async function loadTable(client: pg.Client, t: TableExport, file: string): Promise<void> {
  const columns = t.columns.map(quote).join(', ');
  let batch: unknown[][] = [];
  let count = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const width = t.columns.length;
    const values = batch.map((_, i) => `(${t.columns.map((__, j) => `$${i * width + j + 1}`).join(', ')})`).join(', ');
    await client.query(`insert into ${quote(t.name)} (${columns}) values ${values}`, batch.flat());
    count += batch.length;
    batch = [];
  };
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === '') continue;
    const row = JSON.parse(line) as unknown;
    if (!Array.isArray(row) || row.length !== t.columns.length) throw new BackupError(`${file}: a line is not a row of ${t.columns.length} columns`);
    batch.push(row);
    // PostgreSQL takes at most 65,535 parameters a statement.
    if ((batch.length + 1) * t.columns.length > 60000 || batch.length >= BATCH) await flush();
  }
  await flush();
  if (count !== t.rows) throw new BackupError(`${file} has ${count} rows where the backup's manifest says ${t.rows}`);
}
