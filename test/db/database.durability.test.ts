// What the server tells anyone is on disk: SQLite's log is flushed off the event loop (one flush
// for the commits made while the last one ran) and every answer waits for it. And the users and
// realms that authentication keeps between requests are never stale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { WalSync } from '../../src/db/wal-sync.ts';
import { startServer } from '../helpers/server.ts';

/** A flush that waits until the test lets it end. */
function controlledFlush() {
  const started: (() => void)[] = [];
  return {
    started,
    flush: () => new Promise<void>((resolve) => started.push(resolve)),
  };
}

const tick = () => new Promise((r) => setImmediate(r));

test('WalSync: nothing written, nothing flushed; commits made during a flush share the next one', async (t) => {
  const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'parley-wal-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'db-wal'), '');
  const f = controlledFlush();
  const wal = new WalSync(path.join(dir, 'db-wal'), f.flush);
  t.after(() => wal.close());

  await wal.sync();
  assert.equal(f.started.length, 0);

  wal.written();
  let firstDone = false;
  const first = wal.sync().then(() => (firstDone = true));
  while (f.started.length < 1) await tick();
  // Written while the first flush runs: not covered by it.
  wal.written();
  let secondDone = false;
  const second = wal.sync().then(() => (secondDone = true));
  const third = wal.sync();
  f.started[0]!();
  await first;
  assert.equal(firstDone, true);
  await tick();
  assert.equal(secondDone, false, 'a write made during a flush waits for the next flush');
  while (f.started.length < 2) await tick();
  f.started[1]!();
  await Promise.all([second, third]);
  assert.equal(f.started.length, 2, 'two waiting callers share one flush');
});

test('WalSync: a failed flush fails the sync, and the next sync flushes again', async (t) => {
  const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'parley-wal-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.writeFileSync(path.join(dir, 'db-wal'), '');
  let calls = 0;
  const wal = new WalSync(path.join(dir, 'db-wal'), async () => {
    calls++;
    if (calls === 1) throw new Error('EIO');
  });
  t.after(() => wal.close());
  wal.written();
  await assert.rejects(wal.sync(), /EIO/);
  await wal.sync();
  assert.equal(calls, 2);
});

test('no one hears of a write, the sender nor a long-polling client, before the log is flushed', { skip: !!process.env.TEST_DATABASE_URL && 'PostgreSQL commits are durable by themselves' }, async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const reg = await s.ok('POST', '/api/v1/register', { event_types: ['message'], fetch_event_types: [] }, bob);
  // Every FileHandle flush in this process goes through here while the test runs.
  const probe = await fs.promises.open(path.join(s.config.dataDir, 'parley.db'), 'r');
  const proto = Object.getPrototypeOf(probe) as { datasync(this: fs.promises.FileHandle): Promise<void> };
  await probe.close();
  const original = proto.datasync;
  const order: string[] = [];
  let release = () => {};
  proto.datasync = async function (this: fs.promises.FileHandle) {
    order.push('flush started');
    await new Promise<void>((r) => (release = r));
    await original.call(this);
    order.push('flush ended');
  };
  t.after(() => {
    proto.datasync = original;
  });
  const polled = s.ok('GET', '/api/v1/events', { queue_id: reg.queue_id, last_event_id: reg.last_event_id }, bob).then((r) => {
    order.push('poll answered');
    return r;
  });
  const sent = s.ok('POST', '/api/v1/messages', { type: 'private', to: [bob.id], content: 'on disk' }).then((r) => {
    order.push('send answered');
    return r;
  });
  while (!order.includes('flush started')) await tick();
  // The message is committed and queued, but not yet on disk: nobody has been told.
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(order, ['flush started']);
  release();
  const [{ id }, { events }] = await Promise.all([sent, polled]);
  assert.deepEqual(order.slice(0, 2), ['flush started', 'flush ended']);
  assert.deepEqual(new Set(order.slice(2)), new Set(['send answered', 'poll answered']));
  assert.equal(events[0].message.id, id);
  // With nothing waiting for the disk, a read waits for no flush.
  order.length = 0;
  await s.ok('GET', `/api/v1/messages/${id}`);
  assert.deepEqual(order, []);
});

test('authentication sees every change of users and realms at once, also those of another connection', { skip: !!process.env.TEST_DATABASE_URL && 'the cache is for SQLite' }, async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  assert.equal((await s.ok('GET', '/api/v1/users/me', {}, alice)).role, 400);
  // Through the API.
  await s.ok('PATCH', `/api/v1/users/${alice.id}`, { role: 200 });
  assert.equal((await s.ok('GET', '/api/v1/users/me', {}, alice)).role, 200);
  // Another process on the same file (an administrator's command, say).
  const other = new SQLite(path.join(s.config.dataDir, 'parley.db'));
  t.after(() => other.close());
  other.prepare('update users set is_active = 0 where id = ?').run(alice.id);
  const refused = await s.api('GET', '/api/v1/users/me', {}, { as: alice });
  assert.equal(refused.body.code, 'USER_DEACTIVATED');
  other.prepare('update users set is_active = 1 where id = ?').run(alice.id);
  await s.ok('GET', '/api/v1/users/me', {}, alice);
  other.prepare('update realms set deactivated = 1').run();
  assert.equal((await s.api('GET', '/api/v1/users/me', {}, { as: alice })).body.code, 'REALM_DEACTIVATED');
});
