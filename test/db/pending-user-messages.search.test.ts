// SQLite: a new message enters the full-text index in the batches that move its user_messages
// rows (migration 0018), and before any statement that names the index: a search finds a message
// the moment its send is answered, edits and deletions before its turn leave the index sound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { send, subscribe } from '../helpers/factories.ts';
import { startServer, type TestServer } from '../helpers/server.ts';

const sqliteOnly = { skip: !!process.env.TEST_DATABASE_URL && "PostgreSQL's search index is an index of messages" };

async function searchIds(s: TestServer, word: string): Promise<number[]> {
  const r = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'search', operand: word }] });
  return (r.messages as { id: number }[]).map((m) => m.id);
}

/**
 * Sends a message, waits for the timer to index it, then has a connection of the test's own take
 * it out of the index again, as a send whose batch has not run yet leaves it: that connection.
 */
async function sentNotIndexed(t: { after(fn: () => unknown): void }, s: TestServer, content: string): Promise<{ id: number; file: SQLite.Database }> {
  const id = await send(s, 'Search', 'words', content);
  const file = new SQLite(path.join(s.config.dataDir, 'parley.db'));
  t.after(() => file.close());
  const upTo = file.prepare('select up_to from search_indexed').pluck();
  for (let i = 0; i < 200 && (upTo.get() as number) < id; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(upTo.get(), id, 'the timer indexed the message');
  file.transaction(() => {
    file.prepare("insert into messages_fts (messages_fts, rowid, topic, content) select 'delete', id, topic, content from messages where id = ?").run(id);
    file.prepare('update search_indexed set up_to = ?').run(id - 1);
  })();
  return { id, file };
}

function matches(file: SQLite.Database, word: string): number[] {
  return file.prepare('select rowid from messages_fts where messages_fts match ? order by rowid').pluck().all(word) as number[];
}

/**
 * FTS5's own check of the index against the messages table (it throws when they differ), on the
 * server's connection: the statement names the index, so every message is indexed first.
 */
async function assertIndexSound(s: TestServer): Promise<void> {
  await sql`insert into messages_fts (messages_fts, rank) values ('integrity-check', 1)`.execute(s.server.app.db.kysely);
}

async function streamServer(t: { after(fn: () => unknown): void }): Promise<TestServer> {
  const s = await startServer();
  t.after(() => s.close());
  await subscribe(s, ['Search']);
  return s;
}

test('a search finds a message its batch has not indexed yet: the search indexes it first', sqliteOnly, async (t) => {
  const s = await streamServer(t);
  const { id, file } = await sentNotIndexed(t, s, 'alpha bravo');
  assert.deepEqual(matches(file, 'bravo'), [], 'not in the index');
  assert.deepEqual(await searchIds(s, 'bravo'), [id]);
  assert.deepEqual(matches(file, 'bravo'), [id], 'indexed by the search');
  assert.equal(file.prepare('select up_to from search_indexed').pluck().get(), id);
  await assertIndexSound(s);
});

test('a message edited before its turn is indexed as edited', sqliteOnly, async (t) => {
  const s = await streamServer(t);
  const { id, file } = await sentNotIndexed(t, s, 'alpha bravo');
  await s.ok('PATCH', `/api/v1/messages/${id}`, { content: 'charlie delta', topic: 'renamed' });
  await assertIndexSound(s); // the edit left the index sound
  assert.deepEqual(await searchIds(s, 'bravo'), []);
  assert.deepEqual(await searchIds(s, 'charlie'), [id]);
  assert.ok((await searchIds(s, 'renamed')).includes(id), 'the topic too');
  await assertIndexSound(s);
  // Once indexed, an edit changes the index at once, as before.
  await s.ok('PATCH', `/api/v1/messages/${id}`, { content: 'echo foxtrot' });
  assert.deepEqual(matches(file, 'charlie'), []);
  assert.deepEqual(matches(file, 'echo'), [id]);
  await assertIndexSound(s);
});

test('a message deleted before its turn never enters the index', sqliteOnly, async (t) => {
  const s = await streamServer(t);
  const { id, file } = await sentNotIndexed(t, s, 'alpha bravo');
  const kept = await send(s, 'Search', 'words', 'bravo again');
  await s.ok('DELETE', `/api/v1/messages/${id}`);
  assert.deepEqual(await searchIds(s, 'bravo'), [kept]);
  assert.deepEqual(matches(file, 'alpha'), []);
  await assertIndexSound(s);
});

test('messages a stop left unindexed are indexed when the file is opened again', sqliteOnly, async (t) => {
  const s = await startServer();
  await subscribe(s, ['Search']);
  const { id, file } = await sentNotIndexed(t, s, 'golf hotel');
  file.close();
  await s.close({ keepData: true });
  const again = await startServer({ dataDir: s.config.dataDir });
  t.after(() => again.close());
  const check = new SQLite(path.join(s.config.dataDir, 'parley.db'), { readonly: true });
  t.after(() => check.close());
  assert.deepEqual(matches(check, 'hotel'), [id]);
  assert.equal(check.prepare('select up_to from search_indexed').pluck().get(), id);
});
