// Two `parley serve` processes on one PostgreSQL database share events through Redis: a message
// sent through one reaches a client polling the other, and a client whose process stops
// registers again through the other. Runs with TEST_DATABASE_URL and Redis (as .ci/run does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_RATE_LIMITS, temporaryPostgres } from '../helpers/server.ts';
import { caller, freePort, runCli, serve, stopped } from '../helpers/processes.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
test('two processes on PostgreSQL and Redis: delivery across them, and re-registering after one stops', { skip: adminUrl ? false : 'needs TEST_DATABASE_URL (PostgreSQL) and Redis', timeout: 120_000 }, async (t) => {
  const db = await temporaryPostgres(adminUrl!);
  const name = new URL(db.url).pathname.slice(1);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-two-'));
  const env = { ...TEST_RATE_LIMITS, DATA_DIR: dataDir, DATABASE_URL: db.url, REDIS_URL: redisUrl, REDIS_PREFIX: name, EXTERNAL_HOST: 'localhost' };
  const children: ChildProcess[] = [];
  t.after(async () => {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map(stopped));
    await db.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const realm = JSON.parse(await runCli(['create-realm', '--name', 'Two', '--owner-email', 'owner@two.test', '--owner-name', 'Owner', '--json'], env)) as { email: string; api_key: string };
  const [portA, portB] = [await freePort(), await freePort()];
  const a = await serve(portA!, env);
  children.push(a);
  const b = await serve(portB!, env);
  children.push(b);
  const call = caller(realm.email, realm.api_key);

  // A client polls process B; a message is sent through process A.
  const reg = await call(portB!, 'POST', '/register', { event_types: ['message'] });
  assert.equal(reg.result, 'success');
  const poll = call(portB!, 'GET', '/events', { queue_id: reg.queue_id, last_event_id: -1 });
  const sent = await call(portA!, 'POST', '/messages', { type: 'stream', to: 'general', topic: 'two', content: 'through A' });
  const got = await poll;
  assert.deepEqual(
    got.events.map((e: any) => [e.type, e.message.id, e.message.content]),
    [['message', sent.id, 'through A']], // register's apply_markdown defaults to false
  );

  // Process B stops: its client finds its queue gone through A, and registers again there.
  b.kill('SIGKILL');
  await stopped(b);
  const lost = await call(portA!, 'GET', '/events', { queue_id: reg.queue_id, last_event_id: got.events[0].id, dont_block: true });
  assert.equal(lost.result, 'error');
  assert.equal(lost.code, 'BAD_EVENT_QUEUE_ID');
  const again = await call(portA!, 'POST', '/register', { event_types: ['message'] });
  assert.equal(again.result, 'success');
  const poll2 = call(portA!, 'GET', '/events', { queue_id: again.queue_id, last_event_id: -1 });
  const sent2 = await call(portA!, 'POST', '/messages', { type: 'stream', to: 'general', topic: 'two', content: 'after failover' });
  assert.deepEqual((await poll2).events.map((e: any) => e.message.id), [sent2.id]);
});
