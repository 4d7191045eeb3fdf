// parley backup and parley restore, run as an operator would: the CLI against a server that keeps
// working, then a server started on the restored data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import { startServer, temporaryPostgres, type Account, type TestServer } from '../helpers/server.ts';

const run = promisify(execFile);
const bin = path.resolve('bin/parley.js');
const adminUrl = process.env.TEST_DATABASE_URL;

const auth = (as: Account) => 'Basic ' + Buffer.from(`${as.email}:${as.apiKey}`).toString('base64');

/** Runs the CLI on the database the suite runs on: SQLite in `dataDir`, or `databaseUrl`. */
function parley(args: string[], dataDir: string, databaseUrl: string | null) {
  const where = ['--data-dir', dataDir, ...(databaseUrl ? ['--database-url', databaseUrl] : [])];
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.UPLOADS_DIR;
  return run('node', [bin, ...args, ...where], { env });
}

async function refused(p: Promise<unknown>): Promise<string> {
  const e = (await p.then(
    () => assert.fail('the command succeeded'),
    (err: unknown) => err,
  )) as { code: number; stderr: string };
  assert.equal(e.code, 2, e.stderr);
  return e.stderr;
}

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-backup-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function uploadFile(s: TestServer, name: string, content: Buffer): Promise<string> {
  const form = new FormData();
  form.set('filename', new Blob([new Uint8Array(content)], { type: 'application/octet-stream' }), name);
  const res = await fetch(`${s.baseUrl}/api/v1/user_uploads`, { method: 'POST', headers: { authorization: auth(s.owner) }, body: form });
  const body = (await res.json()) as { uri: string };
  assert.equal(res.status, 200, JSON.stringify(body));
  return body.uri;
}

test('a backup taken while messages are being sent restores every message acknowledged before it began, and the uploads', async (t) => {
  const dir = tempDir(t);
  const s = await startServer({ dataDir: path.join(dir, 'live') });
  t.after(() => s.close());
  // On SQLite, a reader that stays open holds checkpoints back, so what is sent from here on is
  // only in the write-ahead log when the backup begins: a copy of parley.db alone would miss it.
  const reader = s.databaseUrl ? null : new SQLite(path.join(s.config.dataDir, 'parley.db'), { readonly: true });
  reader?.exec('begin');
  reader?.prepare('select count(*) from messages').get();
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'busy' }] });
  const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));
  const uri = await uploadFile(s, 'report.bin', bytes);
  const withFile = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'busy', topic: 'files', content: `[report](${uri})` });

  // One sender, one message at a time: IDs grow with acknowledgement order.
  const acked: { id: number; content: string }[] = [{ id: withFile.id as number, content: `[report](${uri})` }];
  let sending = true;
  const sender = (async () => {
    for (let n = 0; sending; n++) {
      const content = `message ${n}`;
      const r = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'busy', topic: 'load', content });
      acked.push({ id: r.id as number, content });
    }
  })();
  while (acked.length < 20) await new Promise((r) => setTimeout(r, 5));

  const out = path.join(dir, 'backup');
  const before = acked.length;
  await parley(['backup', '--out', out], s.config.dataDir, s.databaseUrl);
  const after = acked.length;
  sending = false;
  await sender;
  reader?.close();
  assert.ok(after > before, 'messages were acknowledged while the backup ran');
  const manifest = JSON.parse(fs.readFileSync(path.join(out, 'parley-backup.json'), 'utf8'));
  assert.equal(manifest.database, s.databaseUrl ? 'postgres' : 'sqlite');
  assert.equal(manifest.uploads.files, 1);
  assert.deepEqual(fs.readdirSync(out).sort(), [s.databaseUrl ? 'database' : 'parley.db', 'parley-backup.json', 'uploads'].sort());
  assert.equal(fs.readdirSync(dir).filter((f) => f.startsWith('backup.partial')).length, 0, 'no partial folder is left');

  // Restore into a data directory that does not exist yet (and a new PostgreSQL database).
  const target = adminUrl ? await temporaryPostgres(adminUrl) : null;
  let restored: TestServer | undefined = undefined;
  // One hook, as hooks run in the order they were registered: the server before its database.
  t.after(async () => {
    await restored?.close({ keepData: true });
    await target?.drop();
  });
  const restoredDir = path.join(dir, 'restored');
  const { stdout } = await parley(['restore', '--from', out], restoredDir, target?.url ?? null);
  assert.match(stdout, /Restored the .* and 1 uploaded files/);

  const r = await startServer({ dataDir: restoredDir, databaseUrl: target?.url ?? null });
  restored = r;
  await checkRestored(r, acked, before, uri, bytes);
});

async function checkRestored(r: TestServer, acked: { id: number; content: string }[], before: number, uri: string, bytes: Buffer): Promise<void> {
  const got = await r.ok('GET', '/api/v1/messages', { anchor: 'oldest', num_before: 0, num_after: 5000, narrow: [{ operator: 'stream', operand: 'busy' }], apply_markdown: false });
  const restored = new Map((got.messages as { id: number; content: string }[]).map((m) => [m.id, m.content]));
  for (const m of acked.slice(0, before)) assert.equal(restored.get(m.id), m.content, `message ${m.id} was acknowledged before the backup began`);
  // A snapshot: exactly the messages up to one point in the sending order, none skipped.
  const last = Math.max(...restored.keys());
  assert.deepEqual([...restored.keys()].sort((a, b) => a - b), acked.filter((m) => m.id <= last).map((m) => m.id));

  // Every table was read at the same moment: no recipient row without its message, or the reverse.
  const db = r.server.app.db.kysely;
  const orphans = await db.selectFrom('user_messages').select((e) => e.fn.countAll<number>().as('n')).where('message_id', 'not in', db.selectFrom('messages').select('id')).executeTakeFirstOrThrow();
  assert.equal(Number(orphans.n), 0, 'recipient rows of messages the backup does not have');
  const unreceived = await db.selectFrom('messages').select((e) => e.fn.countAll<number>().as('n')).where('id', 'not in', db.selectFrom('user_messages').select('message_id')).executeTakeFirstOrThrow();
  assert.equal(Number(unreceived.n), 0, 'messages without their recipient rows');

  const file = await fetch(r.baseUrl + uri, { headers: { authorization: auth(r.owner) } });
  assert.equal(file.status, 200);
  assert.deepEqual(Buffer.from(await file.arrayBuffer()), bytes);
  // New rows follow the restored ones.
  const next = await r.ok('POST', '/api/v1/messages', { type: 'stream', to: 'busy', topic: 'after', content: 'back again' });
  assert.ok((next.id as number) > last);
}

test('restore refuses a data directory or database that is not empty; backup refuses an existing path', async (t) => {
  const dir = tempDir(t);
  const s = await startServer({ dataDir: path.join(dir, 'live') });
  t.after(() => s.close());
  const out = path.join(dir, 'backup');
  await parley(['backup', '--out', out], s.config.dataDir, s.databaseUrl);
  assert.match(await refused(parley(['backup', '--out', out], s.config.dataDir, s.databaseUrl)), /already exists/);
  // The live server's own data.
  const stderr = await refused(parley(['restore', '--from', out], s.config.dataDir, s.databaseUrl));
  assert.match(stderr, s.databaseUrl ? /PostgreSQL database is not empty/ : /data directory .* is not empty/);
  // Not a backup.
  assert.match(await refused(parley(['restore', '--from', dir], path.join(dir, 'fresh'), null)), /parley-backup\.json is missing/);
  assert.equal(fs.existsSync(path.join(dir, 'fresh')), false);
  // A backup of the other database.
  const other = s.databaseUrl ? /restore it with --database-url/ : /SQLite database: restore it into an empty --data-dir/;
  const elsewhere = s.databaseUrl ? null : 'postgres://nobody@127.0.0.1:1/none';
  assert.match(await refused(parley(['restore', '--from', out], path.join(dir, 'fresh'), elsewhere)), other);
  assert.equal((await s.ok('GET', '/api/v1/users/me')).email, s.owner.email, 'the server goes on serving');
});
