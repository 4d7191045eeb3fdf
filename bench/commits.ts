// Commit times on SQLite: transactions shaped like a stream message's per-recipient rows (50 rows
// into a table with two indexes, as user_messages has), timed from begin to the end of the commit
// (and the wait for the disk, separately). With --baseline DIR (a checkout's src/), that version's
// database layer runs too, interleaved with this one in the same run.
// Run: npx tsx bench/commits.ts [--transactions 3000] [--rounds 5] [--rows 50] [--baseline DIR]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const TRANSACTIONS = Number(args.get('transactions') ?? 3000);
const ROUNDS = Number(args.get('rounds') ?? 5);
const ROWS = Number(args.get('rows') ?? 50);
const dir = path.dirname(fileURLToPath(import.meta.url));
type Db = import('../src/db/database.ts').Db;

const walFiles = new Map<Db, string>();

async function open(src: string): Promise<Db> {
  const { openDatabase } = (await import(path.join(src, 'db/database.ts'))) as typeof import('../src/db/database.ts');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
  const db = await openDatabase({ dataDir, databaseUrl: null });
  walFiles.set(db, path.join(dataDir, 'parley.db-wal'));
  await sql`create table bench_rows (user_id integer not null, message_id integer not null, flags integer not null)`.execute(db.kysely);
  await sql`create unique index bench_rows_um on bench_rows (user_id, message_id)`.execute(db.kysely);
  await sql`create index bench_rows_flags on bench_rows (user_id, flags, message_id)`.execute(db.kysely);
  return db;
}

const versions = [{ name: 'this', db: await open(path.join(dir, '../src')), commits: [] as number[], syncs: [] as number[] }];
if (args.get('baseline')) versions.push({ name: 'baseline', db: await open(path.resolve(args.get('baseline')!)), commits: [], syncs: [] });
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const load: number[] = [];
let message = 0;
for (let r = 0; r < ROUNDS; r++) {
  for (const v of r % 2 ? [...versions].reverse() : versions) {
    for (let i = 0; i < TRANSACTIONS; i++) {
      const id = ++message;
      const t0 = performance.now();
      await v.db.kysely.transaction().execute(async (tx) => {
        const rows = Array.from({ length: ROWS }, (_, u) => sql`(${u * 20 + (id % 20)}, ${id}, ${id % 3})`);
        await sql`insert into bench_rows (user_id, message_id, flags) values ${sql.join(rows)}`.execute(tx);
      });
      const t1 = performance.now();
      await v.db.sync();
      v.commits.push(t1 - t0);
      v.syncs.push(performance.now() - t1);
      // Requests come apart in time; let the worker threads run between them.
      if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }
  load.push(os.loadavg()[0]!);
}
console.log(`${ROUNDS} rounds of ${TRANSACTIONS} transactions of ${ROWS} rows; load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}`);
for (const v of versions) {
  const total = v.commits.reduce((a, b) => a + b, 0);
  const slow = v.commits.filter((c) => c > 5);
  console.log(
    `${v.name.padEnd(9)} transaction to commit: p50 ${pct(v.commits, 50).toFixed(3)} ms, p99 ${pct(v.commits, 99).toFixed(2)} ms, p99.9 ${pct(v.commits, 99.9).toFixed(1)} ms, max ${pct(v.commits, 100).toFixed(1)} ms, ` +
      `mean ${(total / v.commits.length).toFixed(3)} ms, over 5 ms: ${slow.length} (${slow.reduce((a, b) => a + b, 0).toFixed(0)} of ${total.toFixed(0)} ms); ` +
      `wait for the disk p50 ${pct(v.syncs, 50).toFixed(2)} ms, p99 ${pct(v.syncs, 99).toFixed(1)} ms; ` +
      `largest log ${(fs.statSync(walFiles.get(v.db)!).size / 1e6).toFixed(1)} MB`,
  );
}
for (const v of versions) await v.db.close();
