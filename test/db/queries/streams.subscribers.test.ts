// A stream's active subscribers are kept between sends (activeSubscriberIds) while nothing that
// may change them has run: a subscription, an unsubscription, a deactivation, a rollback, or a
// commit of another connection (SQLite) or process (PostgreSQL with Redis) each make the next
// send read them again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { activeSubscriberIds } from '../../../src/db/queries/streams.ts';
import { send, subscribe } from '../../helpers/factories.ts';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { streamId } from '../../helpers/subscriptions.ts';

/** Who got the message: those with a user_messages row for it. */
async function receivers(s: TestServer, content: string): Promise<number[]> {
  const id = await send(s, 'Kept', 't', content);
  const rows = await s.server.app.db.kysely.selectFrom('user_messages').select('user_id').where('message_id', '=', id).orderBy('user_id').execute();
  return rows.map((r) => r.user_id);
}

test('sends reach the subscribers as they are at each send', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const carol = await s.createUser('Carol');
  await subscribe(s, ['Kept'], undefined, { principals: [s.owner.id, bob.id] });
  assert.deepEqual(await receivers(s, 'one'), [s.owner.id, bob.id]);
  await subscribe(s, ['Kept'], carol);
  assert.deepEqual(await receivers(s, 'two'), [s.owner.id, bob.id, carol.id], 'a subscription');
  await s.ok('DELETE', '/api/v1/users/me/subscriptions', { subscriptions: ['Kept'] }, bob);
  assert.deepEqual(await receivers(s, 'three'), [s.owner.id, carol.id], 'an unsubscription');
  await s.ok('DELETE', `/api/v1/users/${carol.id}`);
  assert.deepEqual(await receivers(s, 'four'), [s.owner.id], 'a deactivation');
});

const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
/** PostgreSQL keeps them only with Redis, which tells every process of the others' writes. */
const withRedis = () => ({ env: { REDIS_URL: redisUrl!, REDIS_PREFIX: `parley_subs_${randomBytes(4).toString('hex')}` } });

test('kept subscribers: a rolled-back subscription is forgotten; another connection is seen', { skip: !!pgUrl && !redisUrl && 'PostgreSQL without Redis keeps nothing' }, async (t) => {
  const s = await startServer(pgUrl ? withRedis() : {});
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  await subscribe(s, ['Kept']);
  const { db } = s.server.app;
  const id = await streamId(s, 'Kept');
  assert.deepEqual(await activeSubscriberIds(db, db.kysely, id), [s.owner.id]);
  const row = await db.kysely.selectFrom('subscriptions').selectAll().where('stream_id', '=', id).executeTakeFirstOrThrow();
  const { id: _id, ...copy } = row;
  await assert.rejects(
    db.kysely.transaction().execute(async (tx) => {
      // eslint-disable-next-line no-restricted-syntax -- the uncommitted, rolled-back subscription is what this test is about
      await tx.insertInto('subscriptions').values({ ...copy, user_id: bob.id }).execute();
      assert.deepEqual(await activeSubscriberIds(db, tx, id), [s.owner.id, bob.id], 'the transaction sees its own subscription');
      // PostgreSQL: another transaction, on another connection, meanwhile is not served it.
      if (pgUrl) assert.deepEqual(await activeSubscriberIds(db, db.kysely, id), [s.owner.id], 'uncommitted');
      throw new Error('rolled back');
    }),
    /rolled back/,
  );
  assert.deepEqual(await activeSubscriberIds(db, db.kysely, id), [s.owner.id], 'the rollback undid it');
  if (pgUrl) return; // another process: the next test

  // Another connection (an operator's command, say) subscribes Bob: seen from the next turn on.
  const other = new SQLite(path.join(s.config.dataDir, 'parley.db'));
  t.after(() => other.close());
  other.prepare('update subscriptions set user_id = ? where stream_id = ? and user_id = ?').run(bob.id, id, s.owner.id);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(await activeSubscriberIds(db, db.kysely, id), [bob.id]);
});

test('PostgreSQL with Redis: sends through one process reach the subscribers as changed through another', { skip: pgUrl && redisUrl ? false : 'needs TEST_DATABASE_URL and TEST_REDIS_URL' }, async (t) => {
  const redis = withRedis();
  const a = await startServer(redis);
  const b = await startServer({ ...redis, databaseUrl: a.databaseUrl });
  t.after(async () => {
    await b.close({ keepData: true });
    await a.close();
  });
  const bob = await a.createUser('Bob');
  const carol = await a.createUser('Carol');
  await subscribe(a, ['Kept'], undefined, { principals: [a.owner.id, bob.id] });
  assert.deepEqual(await receivers(a, 'one'), [a.owner.id, bob.id]);
  assert.notEqual(a.server.app.db.keptWrites?.() ?? null, null, 'process A keeps them');
  await subscribe(b, ['Kept'], carol);
  assert.deepEqual(await receivers(a, 'two'), [a.owner.id, bob.id, carol.id], 'a subscription through B');
  await b.ok('DELETE', '/api/v1/users/me/subscriptions', { subscriptions: ['Kept'] }, bob);
  assert.deepEqual(await receivers(a, 'three'), [a.owner.id, carol.id], 'an unsubscription through B');
  await b.ok('DELETE', `/api/v1/users/${carol.id}`);
  assert.deepEqual(await receivers(a, 'four'), [a.owner.id], 'a deactivation through B');
});
