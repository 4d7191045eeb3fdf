// What a send reads of a stream, of the sender's subscription, of the realm's linkifiers and of
// who muted the sender is kept between sends (keptRead): every change to any of them, through
// the API or (SQLite) another connection, shows at the next send.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { keptRead } from '../../src/db/kept.ts';
import { startServer } from '../helpers/server.ts';
import { streamId } from '../helpers/subscriptions.ts';

/** On PostgreSQL, with Redis when there is one: only then does a process keep anything. */
const options = () =>
  process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL ? { env: { REDIS_URL: process.env.TEST_REDIS_URL, REDIS_PREFIX: `parley_kept_${randomBytes(4).toString('hex')}` } } : {};
const send = (to: string | number, content: string) => ({ type: 'stream', to, topic: 'kept', content });

test('a send sees a stream renamed, made private, restricted or archived, and a subscription ended, since the last send', async (t) => {
  const s = await startServer(options());
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'plans' }], principals: [s.owner.id, alice.id] });
  const id = await streamId(s, 'plans');
  await s.ok('POST', '/api/v1/messages', send('plans', 'by name'), alice);
  await s.ok('POST', '/api/v1/messages', send(id, 'by ID'), alice);

  await s.ok('PATCH', `/api/v1/streams/${id}`, { new_name: 'roadmap' });
  const gone = await s.api('POST', '/api/v1/messages', send('plans', 'old name'), { as: alice });
  assert.equal(gone.status, 400);
  assert.equal(gone.body.code, 'STREAM_DOES_NOT_EXIST');
  await s.ok('POST', '/api/v1/messages', send('roadmap', 'new name'), alice);

  await s.ok('PATCH', `/api/v1/streams/${id}`, { stream_post_policy: 2 });
  assert.equal((await s.api('POST', '/api/v1/messages', send(id, 'restricted'), { as: alice })).status, 400, 'only administrators post now');
  await s.ok('PATCH', `/api/v1/streams/${id}`, { stream_post_policy: 1 });
  await s.ok('POST', '/api/v1/messages', send(id, 'open again'), alice);

  await s.ok('PATCH', `/api/v1/streams/${id}`, { is_private: true });
  await s.ok('POST', '/api/v1/messages', send(id, 'a subscriber of a private stream'), alice);
  await s.ok('DELETE', '/api/v1/users/me/subscriptions', { subscriptions: ['roadmap'] }, alice);
  const out = await s.api('POST', '/api/v1/messages', send(id, 'no longer subscribed'), { as: alice });
  assert.equal(out.status, 400);
  assert.match(out.body.msg, /Not authorized/);

  await s.ok('DELETE', `/api/v1/streams/${id}`);
  assert.equal((await s.api('POST', '/api/v1/messages', send(id, 'archived'))).status, 400);
});

test('a send sees linkifiers added, changed and removed, and mutes and unmutes, since the last send', async (t) => {
  const s = await startServer(options());
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  const rendered = async (content: string) => {
    const { id } = await s.ok('POST', '/api/v1/messages', send('general', content), alice);
    return (await s.ok('GET', `/api/v1/messages/${id}`, {}, alice)).message.content as string;
  };
  const bobsFlags = async (content: string) => {
    const { id } = await s.ok('POST', '/api/v1/messages', send('general', content), alice);
    return (await s.ok('GET', '/api/v1/messages', { anchor: id, num_before: 0, num_after: 0 }, bob)).messages[0].flags as string[];
  };
  assert.doesNotMatch(await rendered('see T-1'), /href/);
  const { id } = await s.ok('POST', '/api/v1/realm/filters', { pattern: 'T-(?P<id>[0-9]+)', url_template: 'https://t.example.com/{id}' });
  assert.match(await rendered('see T-2'), /href="https:\/\/t\.example\.com\/2"/);
  await s.ok('PATCH', `/api/v1/realm/filters/${id}`, { pattern: 'T-(?P<id>[0-9]+)', url_template: 'https://u.example.com/{id}' });
  assert.match(await rendered('see T-3'), /href="https:\/\/u\.example\.com\/3"/);
  await s.ok('DELETE', `/api/v1/realm/filters/${id}`);
  assert.doesNotMatch(await rendered('see T-4'), /href/);

  assert.deepEqual(await bobsFlags('before'), []);
  await s.ok('POST', `/api/v1/users/me/muted_users/${alice.id}`, {}, bob);
  assert.deepEqual(await bobsFlags('muted'), ['read']);
  await s.ok('DELETE', `/api/v1/users/me/muted_users/${alice.id}`, {}, bob);
  assert.deepEqual(await bobsFlags('unmuted'), []);
  if (process.env.TEST_DATABASE_URL) return;

  // SQLite: another connection (an operator's command, say) mutes and adds a linkifier.
  const other = new SQLite(path.join(s.config.dataDir, 'parley.db'));
  t.after(() => other.close());
  other.prepare('insert into muted_users (user_id, muted_user_id, date_muted) values (?, ?, 0)').run(bob.id, alice.id);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(await bobsFlags('muted elsewhere'), ['read']);
  const realmId = (other.prepare('select realm_id from users where id = ?').get(alice.id) as { realm_id: number }).realm_id;
  other.prepare(`insert into realm_linkifiers (realm_id, pattern, url_template, "order") values (?, 'T-(?P<id>[0-9]+)', 'https://v.example.com/{id}', 0)`).run(realmId);
  await new Promise((r) => setImmediate(r));
  assert.match(await rendered('see T-5'), /href="https:\/\/v\.example\.com\/5"/);
});

test('a kept value is frozen, shared, and not kept when a write raced its read', async (t) => {
  const s = await startServer(options());
  t.after(() => s.close());
  const { db } = s.server.app;
  if (db.keptWrites?.() == null) return; // PostgreSQL without Redis keeps nothing
  let reads = 0;
  const read = async () => ({ n: ++reads });
  const first = await keptRead(db, 'k', read);
  assert.ok(Object.isFrozen(first));
  assert.equal(await keptRead(db, 'k', read), first);
  // A subscription changes while the next read runs: it is answered, not kept.
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'x' }] });
  const raced = await keptRead(db, 'k', async () => {
    await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'y' }] });
    return read();
  });
  assert.equal(raced.n, 2);
  assert.equal((await keptRead(db, 'k', read)).n, 3);
  assert.equal((await keptRead(db, 'k', read)).n, 3);
});
