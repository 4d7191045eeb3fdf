// Synchronous reads (Db.direct) skip Kysely on SQLite's hot paths: they must never see what an
// open transaction has not committed, and must answer what Kysely answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { directReads } from '../../src/db/database.ts';
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

test("directReads serves the app's query builder, never a transaction's; the lookups through it answer as Kysely does", async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const db = s.server.app.db;
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Général' }] });
  await s.ok('POST', '/api/v1/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/issues/{id}' });
  const realmId = (await db.kysely.selectFrom('users').select('realm_id').where('id', '=', s.owner.id).executeTakeFirstOrThrow()).realm_id;
  let inTransaction: unknown = 'unset';
  // Through Kysely (a transaction's builder), then through directReads (the app's, on SQLite).
  const viaKysely = await db.kysely.transaction().execute(async (tx) => {
    inTransaction = directReads(tx);
    const stream = await streamByName(tx, realmId, 'GÉNÉRAL');
    return { stream, byId: await streamById(tx, realmId, stream!.id), sub: await subscription(tx, s.owner.id, stream!.id), linkifiers: await realmLinkifiers(tx, realmId) };
  });
  assert.equal(inTransaction, null);
  assert.equal(directReads(db.kysely) === null, db.dialect === 'postgres');
  const stream = await streamByName(db.kysely, realmId, 'GÉNÉRAL');
  assert.equal(stream?.name, 'Général');
  assert.deepEqual(
    { stream, byId: await streamById(db.kysely, realmId, stream!.id), sub: await subscription(db.kysely, s.owner.id, stream!.id), linkifiers: await realmLinkifiers(db.kysely, realmId) },
    viaKysely,
  );
  assert.equal(viaKysely.linkifiers.length, 1);
});
