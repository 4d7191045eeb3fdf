// Synchronous reads (Db.direct) skip Kysely on SQLite's hot paths: they must never see what an
// open transaction has not committed, and must answer what Kysely answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
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
