// A long-poll woken by a send waits for the same flush of the log as the send; when it ends, the
// sender is answered before the polls (routes with answersAfterWriters).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { startServer } from '../helpers/server.ts';

const tick = () => new Promise((r) => setImmediate(r));

test('the sender of a message is answered before the long-polls its flush woke', { skip: !!process.env.TEST_DATABASE_URL && 'PostgreSQL commits are durable by themselves' }, async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const people = [s.owner, ...(await Promise.all(['Bob', 'Carol', 'Dave'].map((n) => s.createUser(n))))];
  for (const who of people) await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'order' }] }, who);
  const queues = await Promise.all(people.slice(1).map(async (who) => ({ who, reg: await s.ok('POST', '/api/v1/register', { event_types: ['message'], fetch_event_types: [] }, who) })));

  // Hold the next flush of the log until the send and every poll wait for it.
  const probe = await fs.promises.open(path.join(s.config.dataDir, 'parley.db'), 'r');
  const proto = Object.getPrototypeOf(probe) as { datasync(this: fs.promises.FileHandle): Promise<void> };
  await probe.close();
  const original = proto.datasync;
  const held: (() => void)[] = [];
  proto.datasync = async function (this: fs.promises.FileHandle) {
    await new Promise<void>((r) => held.push(r));
    await original.call(this);
  };
  t.after(() => {
    proto.datasync = original;
  });
  // The order in which the server finishes its answers.
  const ended: string[] = [];
  const end = http.ServerResponse.prototype.end;
  http.ServerResponse.prototype.end = function (this: http.ServerResponse, ...args: unknown[]) {
    ended.push(`${this.req.method} ${this.req.url?.split('?')[0]}`);
    return (end as (...a: unknown[]) => http.ServerResponse).apply(this, args);
  } as typeof end;
  t.after(() => {
    http.ServerResponse.prototype.end = end;
  });

  const polls = queues.map(({ who, reg }) => s.ok('GET', '/api/v1/events', { queue_id: reg.queue_id, last_event_id: reg.last_event_id }, who));
  const sent = s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'order', topic: 't', content: 'who hears first' });
  while (held.length === 0) await tick();
  // Let the polls take their events and wait for the same flush.
  for (let i = 0; i < 20; i++) await tick();
  assert.deepEqual(ended, [], 'nobody is answered before the flush');
  held[0]!();
  const [{ id }, ...answers] = await Promise.all([sent, ...polls]);
  for (const a of answers) assert.equal(a.events[0].message.id, id);
  assert.deepEqual(ended, ['POST /api/v1/messages', 'GET /api/v1/events', 'GET /api/v1/events', 'GET /api/v1/events']);
});
