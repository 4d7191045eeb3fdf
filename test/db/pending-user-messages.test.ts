// SQLite: a send stores its user_messages rows as one pending row, and they move into
// user_messages before any statement that names user_messages runs, on a timer after sends, and
// when the file is opened again after a stop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { startServer, type TestServer } from '../helpers/server.ts';
import type { Kysely } from 'kysely';
import { encodeRecipients, RowMover } from '../../src/db/pending-user-messages.ts';
import { checkSendMessage } from '../../src/actions/messages/send.ts';
import type { Database } from '../../src/db/schema.ts';

const sqliteOnly = { skip: !!process.env.TEST_DATABASE_URL && 'PostgreSQL writes user_messages in the send' };

/** What is pending, read on a connection of its own (which moves nothing). */
function pendingIds(s: TestServer): number[] {
  const file = new SQLite(path.join(s.config.dataDir, 'parley.db'), { readonly: true });
  const ids = file.prepare('select message_id from pending_user_messages order by message_id').pluck().all() as number[];
  file.close();
  return ids;
}

function decode(recipients: string): Map<number, number> {
  return new Map((JSON.parse(recipients) as number[]).map((n) => [Math.floor(n / 65536), n % 65536]));
}

async function waitForNothingPending(s: TestServer): Promise<void> {
  for (let i = 0; i < 200 && pendingIds(s).length > 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(pendingIds(s), [], 'the timer moved the rows');
}

async function countRows(db: Kysely<Database>, messageId: number): Promise<number> {
  const r = await db.selectFrom('user_messages').select((e) => e.fn.countAll<number>().as('n')).where('message_id', '=', messageId).executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * Sends a message to the stream, waits for its rows to move, then has another connection put
 * these rows back as pending (as a send on that connection, or a stop, leaves them): its ID.
 */
async function sentThenPending(t: { after(fn: () => unknown): void }, s: TestServer, recipients: Map<number, number>): Promise<number> {
  const id = (await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'Pending', topic: 't', content: 'hello' })).id as number;
  await waitForNothingPending(s);
  const other = new SQLite(path.join(s.config.dataDir, 'parley.db'));
  t.after(() => other.close());
  other.transaction(() => {
    other.prepare('delete from user_messages where message_id = ?').run(id);
    other.prepare('insert into pending_user_messages (message_id, recipients) values (?, ?)').run(id, encodeRecipients(recipients));
  })();
  assert.deepEqual(pendingIds(s), [id]);
  return id;
}

/** `closed`: the test stops the server itself. */
async function twoPeopleStream(t: { after(fn: () => unknown): void }, closed = false) {
  const s = await startServer();
  if (!closed) t.after(() => s.close());
  const bob = await s.createUser('Bob');
  for (const who of [s.owner, bob]) await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Pending' }] }, who);
  return { s, bob };
}

test('a send stores its rows as one pending row in its transaction; readers see them in user_messages', sqliteOnly, async (t) => {
  const { s, bob } = await twoPeopleStream(t);
  const { app } = s.server;
  const db = app.db.kysely;
  const owner = await db.selectFrom('users').selectAll().where('id', '=', s.owner.id).executeTakeFirstOrThrow();
  const realm = await db.selectFrom('realms').selectAll().where('id', '=', owner.realm_id).executeTakeFirstOrThrow();
  const stream = await db.selectFrom('streams').selectAll().where('name', '=', 'Pending').executeTakeFirstOrThrow();
  let pendingInSend: { message_id: number; recipients: string }[] = [];
  const id = await checkSendMessage(app, owner, realm, {
    addressee: { type: 'stream', stream, topic: 't' },
    content: 'hello',
    inTransaction: async (scope) => {
      pendingInSend = await scope.tx.selectFrom('pending_user_messages').selectAll().execute();
    },
  });
  assert.deepEqual(pendingInSend.map((r) => r.message_id), [id], 'the message waits as one pending row');
  assert.deepEqual(decode(pendingInSend[0]!.recipients), new Map([[owner.id, 1], [bob.id, 0]]), "the sender's row read, Bob's unread");
  const rows = await db.selectFrom('user_messages').select(['user_id', 'flags']).where('message_id', '=', id).orderBy('user_id').execute();
  assert.deepEqual(rows, [
    { user_id: owner.id, flags: 1 },
    { user_id: bob.id, flags: 0 },
  ]);
  assert.deepEqual(pendingIds(s), []);
  const reg = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['message', 'update_message_flags'] }, bob);
  const unread = (reg.unread_msgs as { streams: { unread_message_ids: number[] }[] }).streams.flatMap((x) => x.unread_message_ids);
  assert.ok(unread.includes(id), "Bob's unread messages have it");
});

test('rows pending in the file move before the next statement that names user_messages', sqliteOnly, async (t) => {
  const { s, bob } = await twoPeopleStream(t);
  const { app } = s.server;
  const id = await sentThenPending(t, s, new Map([[s.owner.id, 1], [bob.id, 0]]));
  const fetched = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'is', operand: 'unread' }] }, bob);
  assert.deepEqual((fetched.messages as { id: number }[]).map((m) => m.id), [id], "Bob's unread narrow finds it");
  assert.deepEqual(pendingIds(s), []);
  assert.equal(await countRows(app.db.kysely, id), 2);
});

test('pending rows move on their own shortly after the send', sqliteOnly, async (t) => {
  const { s } = await twoPeopleStream(t);
  const sent = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'Pending', topic: 't', content: 'hello' });
  await waitForNothingPending(s);
  const file = new SQLite(path.join(s.config.dataDir, 'parley.db'), { readonly: true });
  t.after(() => file.close());
  assert.equal(file.prepare('select count(*) from user_messages where message_id = ?').pluck().get(sent.id), 2);
});

test('a statement that names user_messages inside a transaction moves the rows in it: a rollback leaves them pending', sqliteOnly, async (t) => {
  const { s } = await twoPeopleStream(t);
  const { app } = s.server;
  const id = await sentThenPending(t, s, new Map([[s.owner.id, 1]]));
  // A transaction reads the rows, then fails.
  const failed = app.db.kysely.transaction().execute(async (tx) => {
    const rows = await tx.selectFrom('user_messages').select('user_id').where('message_id', '=', id).execute();
    assert.deepEqual(rows, [{ user_id: s.owner.id }], 'the transaction sees the moved row');
    throw new Error('rolled back');
  });
  await assert.rejects(failed, /rolled back/);
  assert.deepEqual(pendingIds(s), [id], 'the rollback left the row pending');
  const rows = await app.db.kysely.selectFrom('user_messages').select('user_id').where('message_id', '=', id).execute();
  assert.deepEqual(rows, [{ user_id: s.owner.id }]);
  assert.deepEqual(pendingIds(s), []);
});

test('rows a stop left pending move when the file is opened again; rows of a deleted message are dropped', sqliteOnly, async (t) => {
  const { s, bob } = await twoPeopleStream(t, true);
  const sent = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'Pending', topic: 't', content: 'kept' });
  const id = sent.id as number;
  await s.close({ keepData: true });
  // As a kill between the send and the move leaves the file: the rows only in the pending table.
  const file = new SQLite(path.join(s.config.dataDir, 'parley.db'));
  file.prepare('delete from user_messages where message_id = ?').run(id);
  file.prepare('insert into pending_user_messages (message_id, recipients) values (?, ?)').run(id, encodeRecipients(new Map([[s.owner.id, 1], [bob.id, 0]])));
  file.prepare('insert into pending_user_messages (message_id, recipients) values (?, ?)').run(id + 1000, encodeRecipients(new Map([[bob.id, 0]])));
  file.close();

  const again = await startServer({ dataDir: s.config.dataDir });
  t.after(() => again.close());
  assert.deepEqual(pendingIds(again), []);
  const check = new SQLite(path.join(s.config.dataDir, 'parley.db'), { readonly: true });
  t.after(() => check.close());
  assert.deepEqual(check.prepare('select user_id, flags from user_messages where message_id = ? order by user_id').all(id), [
    { user_id: s.owner.id, flags: 1 },
    { user_id: bob.id, flags: 0 },
  ]);
  assert.equal(check.prepare('select count(*) from user_messages where message_id = ?').pluck().get(id + 1000), 0, 'no row for a message that is gone');
});

/**
 * `messages` sent messages whose rows another connection puts back as pending, each with
 * `recipients` made-up recipients (message i's from user 100,000 * (i + 1) on, every other one
 * read), as a stop would leave a large backlog: their IDs, and that connection.
 */
async function manyPending(t: { after(fn: () => unknown): void }, s: TestServer, messages: number, recipients: number): Promise<{ ids: number[]; other: SQLite.Database }> {
  const ids: number[] = [];
  for (let i = 0; i < messages; i++) ids.push((await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'Pending', topic: 't', content: `m${i}` })).id as number);
  await waitForNothingPending(s);
  const other = new SQLite(path.join(s.config.dataDir, 'parley.db'));
  t.after(() => other.close());
  const many = (base: number) => new Map(Array.from({ length: recipients }, (_, i) => [base + i, i % 2] as [number, number]));
  other.transaction(() => {
    for (const [i, id] of ids.entries()) {
      other.prepare('delete from user_messages where message_id = ?').run(id);
      other.prepare('insert into pending_user_messages (message_id, recipients) values (?, ?)').run(id, encodeRecipients(many(100_000 * (i + 1))));
    }
  })();
  return { ids, other };
}

test('a large backlog moves on the timer a part a turn, oldest first, and nothing is lost', sqliteOnly, async (t) => {
  const { s } = await twoPeopleStream(t);
  // Three messages of 3,000 recipients each wait (more than one turn's rows); a send arms the timer.
  const { ids, other } = await manyPending(t, s, 3, 3000);
  const last = (await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'Pending', topic: 't', content: 'd' })).id as number;
  await waitForNothingPending(s);
  const count = other.prepare('select count(*) from user_messages where message_id = ?').pluck();
  assert.deepEqual(
    [...ids, last].map((id) => count.get(id)),
    [3000, 3000, 3000, 2],
  );
  assert.equal(other.prepare('select count(*) from user_messages where message_id = ? and flags = 1 and user_id >= 200000').pluck().get(ids[1]), 1500, 'flags kept');
});

test('a read between two parts of a batch moves the rest, over the rows those parts wrote', sqliteOnly, async (t) => {
  const { s } = await twoPeopleStream(t);
  const { app } = s.server;
  const { ids, other } = await manyPending(t, s, 2, 1000);
  await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'Pending', topic: 't', content: 'arms the timer' });
  // The timer writes the batch a part a turn, the first message's rows first (user order).
  const count = other.prepare('select count(*) from user_messages where message_id = ?').pluck();
  for (let i = 0; i < 2000 && count.get(ids[0]) === 0; i++) await new Promise((r) => setTimeout(r, 1));
  const partly = count.get(ids[0]) as number;
  assert.ok(partly > 0 && partly < 1000, `a part of the batch is in (${partly} rows)`);
  assert.deepEqual(pendingIds(s).slice(0, 2), ids, 'and the batch is still pending');
  // A read on the server's connection moves everything now, writing again what the part wrote.
  assert.equal(await countRows(app.db.kysely, ids[1]!), 1000);
  assert.deepEqual(pendingIds(s), []);
  assert.deepEqual(
    ids.map((id) => count.get(id)),
    [1000, 1000],
  );
});

test('a batch that another connection moved between its collection and the write lock is collected again', sqliteOnly, async (t) => {
  const { s } = await twoPeopleStream(t);
  const { ids, other } = await manyPending(t, s, 2, 300);
  // The worker's part collects its batch first, then takes the lock; here, just before the lock,
  // another connection moves everything and deletes the first message.
  const mover = new SQLite(path.join(s.config.dataDir, 'parley.db'));
  t.after(() => mover.close());
  let meddled = false;
  const meddling = new Proxy(mover, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (prop === 'exec')
        return (sql: string) => {
          if (sql === 'begin immediate' && !meddled) {
            meddled = true;
            new RowMover(other).moveAll();
            other.prepare('delete from user_messages where message_id = ?').run(ids[0]);
            other.prepare('delete from messages where id = ?').run(ids[0]);
          }
          return target.exec(sql);
        };
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const part = new RowMover(meddling);
  for (let i = 0; i < 100 && part.movePart(); i++);
  assert.ok(meddled);
  const count = other.prepare('select count(*) from user_messages where message_id = ?').pluck();
  assert.deepEqual(
    ids.map((id) => count.get(id)),
    [0, 300],
    'no rows of the deleted message come back from the batch collected before it went',
  );
  assert.deepEqual(pendingIds(s), []);
});

test('once it has started, a worker thread writes the timer\'s parts; a read of the app between them moves the rest', sqliteOnly, async (t) => {
  const { s } = await twoPeopleStream(t);
  const pending = s.server.app.db.pendingRows()!;
  // The worker starts with the first part; the parts go on here until it is ready.
  for (let i = 0; i < 100 && pending.stats.workerParts === 0; i++) {
    await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'Pending', topic: 't', content: `warm ${i}` });
    await waitForNothingPending(s);
  }
  assert.ok(pending.stats.workerParts > 0, 'the worker wrote a part');
  const ownParts = pending.stats.ownParts;
  const { ids, other } = await manyPending(t, s, 2, 3000);
  await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'Pending', topic: 't', content: 'arms the timer' });
  const count = other.prepare('select count(*) from user_messages where message_id = ?').pluck();
  for (let i = 0; i < 2000 && count.get(ids[0]) === 0; i++) await new Promise((r) => setTimeout(r, 1));
  assert.ok((count.get(ids[0]) as number) > 0, 'a part is in');
  // The app's read waits for the part under way, if any, and moves what is left on its connection.
  assert.equal(await countRows(s.server.app.db.kysely, ids[1]!), 3000);
  assert.deepEqual(pendingIds(s), []);
  assert.deepEqual(
    ids.map((id) => count.get(id)),
    [3000, 3000],
  );
  assert.equal(pending.stats.ownParts, ownParts, 'no part was written on the app\'s connection');
});
