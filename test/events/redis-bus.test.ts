// Two server processes on one database share events through Redis (skipped without Redis).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { Redis } from 'ioredis';
import { createServer } from '../../src/app.ts';
import { createLogger } from '../../src/log.ts';
import { formRequest, startServer } from '../helpers/server.ts';
import { REDIS_URL, redisReachable } from '../helpers/redis.ts';


test('a message sent through one process reaches a client polling another, and polls are forwarded to the queue\'s process', async (t) => {
  if (!(await redisReachable())) {
    t.skip(`no Redis at ${REDIS_URL}`);
    return;
  }
  const prefix = `parley-test-${randomBytes(4).toString('hex')}`;
  const s = await startServer({ env: { REDIS_URL, REDIS_PREFIX: prefix } });
  const other = await createServer(s.config, { log: createLogger('silent') });
  t.after(async () => {
    await other.close().catch(() => undefined);
    await s.close();
    const r = new Redis(REDIS_URL);
    await r.del(`${prefix}:events`);
    r.disconnect();
  });
  const url = await other.listen();
  const bob = await s.createUser('Bob');
  const auth = 'Basic ' + Buffer.from(`${bob.email}:${bob.apiKey}`).toString('base64');
  const call = async (method: string, path: string, params: Record<string, unknown>) => {
    const res = await formRequest(`${url}/api/v1${path}`, method, { host: 'localhost', authorization: auth }, params);
    return JSON.parse(res.text) as Record<string, any>;
  };
  const reg = await call('POST', '/register', { event_types: ['message'] });
  const waiting = call('GET', '/events', { queue_id: reg.queue_id, last_event_id: -1 });
  await s.ok('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify([bob.id]), content: 'across processes' });
  await s.ok('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify([bob.id]), content: 'in order' });
  // Delivery through Redis is asynchronous: keep polling until both messages are in.
  const got = (await waiting).events as { id: number; message: { content: string } }[];
  while (got.length < 2) {
    got.push(...((await call('GET', '/events', { queue_id: reg.queue_id, last_event_id: got.at(-1)!.id })).events as typeof got));
  }
  assert.deepEqual(got.map((e) => [e.id, e.message.content]), [
    [0, 'across processes'],
    [1, 'in order'],
  ]);
  // The queue lives in the second process; a poll that reaches the first one is forwarded.
  const viaFirst = s.ok('GET', '/api/v1/events', { queue_id: reg.queue_id, last_event_id: 1 }, bob);
  await s.ok('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify([bob.id]), content: 'forwarded' });
  assert.deepEqual((await viaFirst).events.map((e: { id: number; message: { content: string } }) => [e.id, e.message.content]), [[2, 'forwarded']]);
  await s.ok('DELETE', '/api/v1/events', { queue_id: reg.queue_id }, bob);
  const gone = await call('GET', '/events', { queue_id: reg.queue_id, last_event_id: -1 });
  assert.equal(gone.code, 'BAD_EVENT_QUEUE_ID');

  // When the owner process stops, its clients' polls through the other process get
  // BAD_EVENT_QUEUE_ID, and they can register again there.
  const reg2 = await call('POST', '/register', { event_types: ['message'] });
  await other.close();
  const orphan = await s.api('GET', '/api/v1/events', { queue_id: reg2.queue_id, last_event_id: -1 }, { as: bob });
  assert.equal(orphan.status, 400);
  assert.equal(orphan.body.code, 'BAD_EVENT_QUEUE_ID');
  const again = await s.ok('POST', '/api/v1/register', { event_types: ['message'] }, bob);
  await s.ok('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify([bob.id]), content: 'after failover' });
  const after = await s.ok('GET', '/api/v1/events', { queue_id: again.queue_id, last_event_id: -1 }, bob);
  assert.equal(after.events[0].message.content, 'after failover');
});
