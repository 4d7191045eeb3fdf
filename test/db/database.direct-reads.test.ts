// Synchronous reads (Db.direct) skip Kysely on SQLite's hot paths: they must never see what an
// open transaction has not committed, and must answer what Kysely answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { directReads, directStatements, type Tx } from '../../src/db/database.ts';
import { realmLinkifiers } from '../../src/db/queries/render-refs.ts';
import { streamById, streamByName, subscription } from '../../src/db/queries/streams.ts';
import { maxMessageIdForUser } from '../../src/db/queries/users.ts';
import { startServer } from '../helpers/server.ts';

test('direct reads are refused while a transaction holds the connection, and match Kysely\'s reads', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const db = s.server.app.db;
  if (db.dialect === 'postgres') {
    assert.equal(db.direct(), null);
    return;
  }
  assert.ok(db.direct());
  assert.throws(() => db.direct()!.get('delete from user_messages', []), /Not a select/);
  let inside: unknown = 'unset';
  await db.kysely.transaction().execute(async (tx) => {
    // eslint-disable-next-line no-restricted-syntax -- the uncommitted write is what this test is about
    await tx.updateTable('users').set({ full_name: 'Uncommitted' }).where('id', '=', s.owner.id).execute();
    inside = db.direct();
  });
  assert.equal(inside, null);
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'general' }] });
  const { id } = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 't', content: 'hi' });
  assert.equal((await s.ok('GET', '/api/v1/users/me')).max_message_id, id);
  assert.equal(await maxMessageIdForUser(db, s.owner.id), id);
});

test("directReads serves the app's query builder and a transaction's (in it); the lookups through it answer as Kysely does", async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const db = s.server.app.db;
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Général' }] });
  await s.ok('POST', '/api/v1/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/issues/{id}' });
  const realmId = (await db.kysely.selectFrom('users').select('realm_id').where('id', '=', s.owner.id).executeTakeFirstOrThrow()).realm_id;
  const lookups = async (q: Parameters<typeof directReads>[0]) => {
    const stream = await streamByName(q, realmId, 'GÉNÉRAL');
    return { stream, byId: await streamById(q, realmId, stream!.id), sub: await subscription(q, s.owner.id, stream!.id), linkifiers: await realmLinkifiers(q, realmId) };
  };
  // Kysely's answers, from the query builder itself.
  const k = db.kysely;
  const streamRow = await k.selectFrom('streams').selectAll().where('realm_id', '=', realmId).where('name', '=', 'Général').executeTakeFirstOrThrow();
  const viaKysely = {
    stream: streamRow,
    byId: streamRow,
    sub: await k.selectFrom('subscriptions').selectAll().where('user_id', '=', s.owner.id).where('stream_id', '=', streamRow.id).executeTakeFirst(),
    linkifiers: await k.selectFrom('realm_linkifiers').selectAll().where('realm_id', '=', realmId).orderBy('order').orderBy('id').execute(),
  };
  assert.equal(viaKysely.linkifiers.length, 1);
  assert.equal(viaKysely.stream?.name, 'Général');
  // The app's builder, and a transaction's, read directly on SQLite only.
  assert.equal(directReads(db.kysely) === null, db.dialect === 'postgres');
  assert.deepEqual(await lookups(db.kysely), viaKysely);
  let kept: Tx | null = null;
  const inTransaction = await db.kysely.transaction().execute(async (tx) => {
    kept = tx;
    assert.equal(directReads(tx) === null, db.dialect === 'postgres');
    return lookups(tx);
  });
  assert.deepEqual(inTransaction, viaKysely);
  // A transaction's builder kept past its end reads nothing directly.
  assert.equal(directReads(kept!), null);
});

test("a transaction's direct statements see its own writes, count them as Kysely's are, and roll back with it", async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const db = s.server.app.db;
  assert.equal(directStatements(db.kysely as unknown as Tx), null);
  if (db.dialect === 'postgres') {
    await db.kysely.transaction().execute(async (tx) => assert.equal(directStatements(tx), null));
    return;
  }
  const name = async () => (await db.kysely.selectFrom('users').select('full_name').where('id', '=', s.owner.id).executeTakeFirstOrThrow()).full_name;
  const before = await name();
  const identity = db.identityWrites!()!;
  await assert.rejects(
    db.kysely.transaction().execute(async (tx) => {
      const direct = directStatements(tx)!;
      assert.throws(() => direct.run('select 1', []), /Not a write/);
      assert.equal(direct.run('update users set full_name = ? where id = ?', ['Direct', s.owner.id]).changes, 1);
      // Its reads, direct and through Kysely, see the write; a read outside it waits for its end.
      assert.equal(direct.get<{ full_name: string }>('select full_name from users where id = ?', [s.owner.id])?.full_name, 'Direct');
      assert.equal((await tx.selectFrom('users').select('full_name').where('id', '=', s.owner.id).executeTakeFirstOrThrow()).full_name, 'Direct');
      assert.equal(db.direct(), null);
      throw new Error('roll back');
    }),
    /roll back/,
  );
  assert.equal(await name(), before);
  // Counted as a write of users: what authentication kept is dropped (and stays dropped).
  assert.ok(db.identityWrites!()! > identity);
});

test('a message sent through the direct statements is the row Kysely would have written, with its recipients', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const db = s.server.app.db;
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'general' }] });
  const { id } = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'Direct', content: 'a **bold** claim' });
  const row = await db.kysely.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  assert.equal(row.topic, 'Direct');
  assert.equal(row.content, 'a **bold** claim');
  assert.equal(row.rendered_content, '<p>a <strong>bold</strong> claim</p>');
  assert.equal(row.sender_id, s.owner.id);
  assert.equal(row.last_edit_time, null);
  const ids = await db.kysely.selectFrom('user_messages').select(['user_id', 'flags']).where('message_id', '=', id).execute();
  assert.deepEqual(ids, [{ user_id: s.owner.id, flags: 1 }]);
  const fetched = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: 'topic', operand: 'direct' }]) });
  assert.deepEqual(
    fetched.messages.map((m: { id: number }) => m.id),
    [id],
  );
});
