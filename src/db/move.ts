// Moves everything from a SQLite data directory into an empty PostgreSQL database: migrations
// first, then each table's rows in batches, then the ID sequences past the copied IDs.
import path from 'node:path';
import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { openDatabase, postgres } from './database.ts';
import { DEFERRAL_TABLES } from './pending-user-messages.ts';
import { WRITE_COUNTS_TABLE } from './migrations/0019_write_counts.ts';

export interface MoveReport {
  tables: { name: string; rows: number }[];
}

const BATCH = 1000;

/**
 * Tables that belong to SQLite only (full-text shadow tables; the deferred writes' own tables,
 * whose pending rows opening and closing the file below moved into user_messages and the index;
 * the triggers' write count) are not copied.
 */
function copiedTables(file: SQLite.Database): string[] {
  const rows = file
    .prepare("select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")
    .all() as { name: string; sql: string | null }[];
  const virtual = rows.filter((r) => /create virtual table/i.test(r.sql ?? '')).map((r) => r.name);
  return rows
    .map((r) => r.name)
    .filter((n) => n !== 'parley_migrations' && !DEFERRAL_TABLES.includes(n) && n !== WRITE_COUNTS_TABLE && !virtual.includes(n) && !virtual.some((v) => n.startsWith(v + '_')));
}

export async function moveSqliteToPostgres(dataDir: string, databaseUrl: string): Promise<MoveReport> {
  const sqlitePath = path.join(dataDir, 'parley.db');
  if (!fs.existsSync(sqlitePath)) throw new Error(`No SQLite database at ${sqlitePath}`);
  const source = new SQLite(sqlitePath, { readonly: true, fileMustExist: true });
  // Bring the SQLite file up to date first, so both sides have the same tables.
  await (await openDatabase({ dataDir, databaseUrl: null })).close();
  // The target gets its schema from the same migrations.
  await (await openDatabase({ dataDir, databaseUrl })).close();

  const client = new (postgres().Client)({ connectionString: databaseUrl });
  await client.connect();
  const report: MoveReport = { tables: [] };
  try {
    const tables = copiedTables(source);
    for (const table of tables) {
      const { rows: existing } = await client.query<{ n: string }>(`select count(*) as n from "${table}"`);
      if (Number(existing[0]?.n ?? 0) > 0) throw new Error(`PostgreSQL table ${table} is not empty: move into an empty database`);
    }
    await client.query('begin');
    // Tables are copied in name order, so foreign keys are not checked while copying (the
    // source satisfied them already).
    await client.query("set session_replication_role = 'replica'");
    for (const table of tables) {
      const pgColumns = new Set(
        (
          await client.query<{ column_name: string }>(
            "select column_name from information_schema.columns where table_name = $1 and is_generated = 'NEVER'",
            [table],
          )
        ).rows.map((r) => r.column_name),
      );
      const columns = (source.prepare(`select name from pragma_table_info('${table}')`).all() as { name: string }[])
        .map((c) => c.name)
        .filter((c) => pgColumns.has(c));
      const select = source.prepare(`select ${columns.map((c) => `"${c}"`).join(', ')} from "${table}"`);
      let batch: unknown[][] = [];
      let count = 0;
      const flush = async () => {
        if (batch.length === 0) return;
        const placeholders = batch.map((_, i) => `(${columns.map((__, j) => `$${i * columns.length + j + 1}`).join(', ')})`).join(', ');
        await client.query(`insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${placeholders}`, batch.flat());
        count += batch.length;
        batch = [];
      };
      for (const row of select.raw().iterate() as Iterable<unknown[]>) {
        batch.push(row);
        if (batch.length >= BATCH) await flush();
      }
      await flush();
      if (columns.includes('id')) {
        // setval of a null sequence (no serial id column) is a no-op.
        await client.query(`select setval(pg_get_serial_sequence('"${table}"', 'id'), coalesce((select max(id) from "${table}"), 0) + 1, false)`);
      }
      report.tables.push({ name: table, rows: count });
    }
    await client.query("set session_replication_role = 'origin'");
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
    source.close();
  }
  return report;
}
