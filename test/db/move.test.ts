import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, temporaryPostgres } from '../helpers/server.ts';
import { moveSqliteToPostgres } from '../../src/db/move.ts';
import { createServer, type Server } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';

const adminUrl = process.env.TEST_DATABASE_URL;

test('move-to-postgres copies an organization from SQLite to PostgreSQL', { skip: adminUrl ? false : 'needs TEST_DATABASE_URL' }, async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-move-'));
  t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  // Build the source on SQLite, whatever TEST_DATABASE_URL says.
  const saved = process.env.TEST_DATABASE_URL;
  delete process.env.TEST_DATABASE_URL;
  const s = await startServer({ dataDir });
  process.env.TEST_DATABASE_URL = saved;
  const alice = await s.createUser('Alice');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'moving' }], principals: [s.owner.id, alice.id] });
  const sent = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'moving', topic: 'boxes', content: 'packed' }, alice);
  await s.server.close();

  const target = await temporaryPostgres(adminUrl!);
  let moved: Server | undefined;
  // One hook, as hooks run in the order they were registered: the moved server before its database.
  t.after(async () => {
    await moved?.close();
    await target.drop();
  });
  await checkMoved(dataDir, target.url, alice, sent.id, (server) => (moved = server));
});

async function checkMoved(dataDir: string, databaseUrl: string, alice: { email: string; apiKey: string }, sentId: number, started: (server: Server) => void): Promise<void> {
  const report = await moveSqliteToPostgres(dataDir, databaseUrl);
  assert.equal(report.tables.find((x) => x.name === 'messages')?.rows, 1);
  assert.equal(report.tables.find((x) => x.name === 'users')?.rows, 2);

  const config = loadConfig({ host: '127.0.0.1', port: '0', 'data-dir': dataDir, 'database-url': databaseUrl }, { EXTERNAL_HOST: 'localhost' });
  const moved = await createServer(config, { log: createLogger('silent') });
  started(moved);
  await checkServes(await moved.listen(), alice, sentId);
}

async function checkServes(base: string, alice: { email: string; apiKey: string }, sentId: number): Promise<void> {
  const auth = 'Basic ' + Buffer.from(`${alice.email}:${alice.apiKey}`).toString('base64');
  const q = new URLSearchParams({ anchor: 'newest', num_before: '5', num_after: '0', narrow: JSON.stringify([['stream', 'moving']]) });
  const res = (await (await fetch(`${base}/api/v1/messages?${q}`, { headers: { authorization: auth } })).json()) as any;
  assert.deepEqual(res.messages.map((m: any) => [m.id, m.content]), [[sentId, '<p>packed</p>']]);
  // New rows continue after the copied IDs.
  const next = (await (
    await fetch(`${base}/api/v1/messages`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ type: 'stream', to: 'moving', topic: 'boxes', content: 'unpacked' }),
    })
  ).json()) as any;
  assert.equal(next.id, sentId + 1);
}
