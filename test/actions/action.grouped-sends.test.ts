// Sends made in the same turn of the event loop share one transaction on SQLite: each keeps its
// own outcome (one that fails is left out and the others run again), and the events follow the
// commit in order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { checkSendMessage } from '../../src/actions/messages/send.ts';
import type { Tx } from '../../src/db/database.ts';

test('concurrent sends: a failing one fails alone, the others commit with their events in order', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Group' }] });
  const bob = await s.createUser('Bob');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Group' }] }, bob);
  const { app } = s.server;
  const db = app.db.kysely;
  const owner = await db.selectFrom('users').selectAll().where('email', '=', 'owner@example.com').executeTakeFirstOrThrow();
  const realm = await db.selectFrom('realms').selectAll().where('id', '=', owner.realm_id).executeTakeFirstOrThrow();
  const stream = await db.selectFrom('streams').selectAll().where('name', '=', 'Group').executeTakeFirstOrThrow();
  const before = s.published.length;
  const txs = new Map<number, Tx>();
  const send = (i: number) =>
    checkSendMessage(app, owner, realm, {
      addressee: { type: 'stream', stream, topic: 'burst' },
      content: `message ${i}`,
      inTransaction: async (scope) => {
        txs.set(i, scope.tx);
        if (i === 2) throw new Error('refused in its transaction');
      },
    });
  const results = await Promise.allSettled([0, 1, 2, 3].map(send));
  assert.deepEqual(
    results.map((r) => r.status),
    ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
  );
  assert.match(String((results[2] as PromiseRejectedResult).reason), /refused in its transaction/);
  const ids = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const sqlite = app.db.dialect === 'sqlite';
  // PostgreSQL runs each send in a transaction of its own, side by side: they commit in any order.
  const byId = (xs: number[]) => [...xs].sort((a, b) => a - b);
  if (sqlite) assert.deepEqual(byId(ids), ids, 'IDs in the order of the calls');
  if (sqlite) assert.equal(new Set([0, 1, 3].map((i) => txs.get(i))).size, 1, 'the kept sends committed together');

  const stored = await db.selectFrom('messages').select(['id', 'content']).where('stream_id', '=', stream.id).where('topic', '=', 'burst').orderBy('id').execute();
  assert.deepEqual(
    stored,
    byId(ids).map((id) => ({ id, content: `message ${[0, 1, 3][ids.indexOf(id)]}` })),
  );
  const rows = await db.selectFrom('user_messages').select(['message_id', 'user_id']).where('message_id', 'in', ids).execute();
  assert.equal(rows.length, ids.length * 2, 'a row per receiver of each kept message');

  const events = s.published.slice(before).filter((p) => p.event.type === 'message');
  for (const id of ids) {
    const receivers = events.filter((p) => p.event.message.id === id).flatMap((p) => p.userIds);
    assert.deepEqual(receivers.sort((a, b) => a - b), [owner.id, bob.id].sort((a, b) => a - b), `receivers of ${id}`);
  }
  const order = [...new Set(events.map((p) => p.event.message.id as number))];
  assert.deepEqual(sqlite ? order : byId(order), byId(ids), 'events published in commit order, none for the failed send');

  // What was acknowledged is readable through the API.
  const fetched = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'topic', operand: 'burst' }] }, bob);
  assert.deepEqual(
    (fetched.messages as { id: number }[]).map((m) => m.id),
    byId(ids),
  );
});

test('a group commits once the flush of the group before it has ended, so each send waits for one flush', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { app } = s.server;
  if (app.db.dialect !== 'sqlite') return t.skip('PostgreSQL runs each send on its own');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Flushes' }] });
  const db = app.db.kysely;
  const owner = await db.selectFrom('users').selectAll().where('email', '=', 'owner@example.com').executeTakeFirstOrThrow();
  const realm = await db.selectFrom('realms').selectAll().where('id', '=', owner.realm_id).executeTakeFirstOrThrow();
  const stream = await db.selectFrom('streams').selectAll().where('name', '=', 'Flushes').executeTakeFirstOrThrow();

  // Each flush waits until the test lets it go.
  const realSync = app.db.sync;
  const flushes: (() => void)[] = [];
  app.db.sync = () => new Promise<void>((resolve, reject) => flushes.push(() => void realSync().then(resolve, reject)));
  t.after(() => (app.db.sync = realSync));
  const waiting = () => flushes.length;
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
  };
  const committed: string[] = [];
  const send = (name: string) =>
    checkSendMessage(app, owner, realm, {
      addressee: { type: 'stream', stream, topic: 'flushes' },
      content: name,
      inTransaction: async () => void committed.push(name),
    }).then((id) => (committed.push(`${name} answered`), id));

  const a = send('a');
  while (waiting() === 0) await turns(1);
  const b = send('b');
  await turns(20);
  assert.deepEqual(committed, ['a'], 'b waits while the flush of a runs');
  assert.equal(waiting(), 1);

  flushes.shift()!();
  await a;
  while (waiting() === 0) await turns(1);
  assert.deepEqual(committed, ['a', 'a answered', 'b'], 'b commits after a is answered');
  flushes.shift()!();
  await b;
  assert.deepEqual(committed, ['a', 'a answered', 'b', 'b answered']);
});
