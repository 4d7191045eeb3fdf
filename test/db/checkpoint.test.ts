// WAL checkpoints on a worker thread (issue 19): they copy the log into the database while the
// main connection goes on committing, the log starts over once copied, and a worker that fails
// says so (the database then checkpoints in its commits again).
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Checkpointer } from '../../src/db/checkpoint.ts';

/** A SQLite file in WAL mode without automatic checkpoints (as the server opens it), removed after the test. */
function walDatabase(t: TestContext): { file: string; db: SQLite.Database } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-ckpt-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'db');
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('create table t (id integer primary key, v text)');
  return { file, db };
}

test('Checkpointer: the log is copied into the database off the event loop, and starts over', async (t) => {
  const { file, db } = walDatabase(t);
  const failures: Error[] = [];
  const checkpoints = new Checkpointer({ file, intervalMs: 0, onFailure: (err) => failures.push(err) });
  const insert = db.prepare('insert into t (v) values (?)');
  const writeSome = () => {
    for (let i = 0; i < 200; i++) insert.run('x'.repeat(2000));
  };
  const checkpointed = async (n: number) => {
    while (checkpoints.stats.checkpoints < n) await new Promise((r) => setTimeout(r, 5));
  };
  writeSome();
  checkpoints.committed();
  await checkpointed(1);
  const size = fs.statSync(`${file}-wal`).size;
  // Everything was copied: the next commit writes the log from its start, and it grows no more.
  assert.deepEqual(db.pragma('wal_checkpoint(PASSIVE)'), [{ busy: 0, log: checkpoints.stats.lastLogFrames, checkpointed: checkpoints.stats.lastLogFrames }]);
  writeSome();
  checkpoints.committed();
  await checkpointed(2);
  writeSome();
  assert.equal(fs.statSync(`${file}-wal`).size, size);
  await checkpoints.close();
  assert.deepEqual(failures, []);
  assert.equal((db.prepare('select count(*) as n from t').get() as { n: number }).n, 600);
  db.close();
});

test('Checkpointer: a worker that cannot open the database reports it once', async () => {
  const failed = new Promise<Error>((resolve) => {
    const checkpoints = new Checkpointer({ file: '/nonexistent/parley/db', onFailure: resolve });
    checkpoints.committed();
  });
  assert.match((await failed).message, /unable to open|directory does not exist|SQLITE_CANTOPEN/i);
});

test('Checkpointer: the worker stops when commits stop and starts again with the next', async (t) => {
  const { file, db } = walDatabase(t);
  const failures: Error[] = [];
  const checkpoints = new Checkpointer({ file, intervalMs: 0, idleMs: 1, onFailure: (err) => failures.push(err) });
  for (let round = 1; round <= 3; round++) {
    db.prepare('insert into t default values').run();
    checkpoints.committed();
    while (checkpoints.stats.checkpoints < round) await new Promise((r) => setTimeout(r, 5));
    // The idle worker is told to stop, and exits while the next one runs a checkpoint.
    await new Promise((r) => setTimeout(r, 10));
  }
  await checkpoints.close();
  assert.deepEqual(failures, []);
  db.close();
});

test('Checkpointer: under a steady stream of commits, writers hold back now and then and the log starts over', async (t) => {
  const { file, db } = walDatabase(t);
  const failures: Error[] = [];
  // A hold comes once the log has 200 frames and a checkpoint took at most 500 ms (a slow machine).
  const checkpoints = new Checkpointer({ file, intervalMs: 0, restartFrames: 200, maxHoldMs: 2000, inTransaction: () => db.inTransaction, onFailure: (err) => failures.push(err) });
  const insert = db.prepare('insert into t (v) values (?)');
  let commits = 0;
  // The log's header counts the times it started over (its checkpoint sequence number). Without
  // the holds it does not start over at all: each checkpoint leaves the commits made while it ran.
  const log = fs.openSync(`${file}-wal`, 'r');
  const header = Buffer.alloc(16);
  const startedOver = () => {
    fs.readSync(log, header, 0, 16, 0);
    return header.readUInt32BE(12);
  };
  // A writer as the actions are: it waits for a hold before each transaction; a commit a turn.
  // Until the log has started over twice; on a busy machine checkpoints take longer, and the
  // first hold comes later.
  for (const end = Date.now() + 20_000; startedOver() < 2 && Date.now() < end; ) {
    await checkpoints.held();
    insert.run('x'.repeat(2000));
    commits++;
    checkpoints.committed();
    await new Promise((r) => setImmediate(r));
  }
  const times = startedOver();
  fs.closeSync(log);
  await checkpoints.close();
  assert.deepEqual(failures, []);
  assert.ok(checkpoints.stats.holds > 0, 'writers were held');
  assert.ok(times >= 2, `the log started over ${times} times in ${commits} commits`);
  assert.equal((db.prepare('select count(*) as n from t').get() as { n: number }).n, commits);
  db.close();
});
