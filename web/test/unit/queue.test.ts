// The API client's event queue against a real server (the /api/v1 routes with Basic auth,
// which /json serves the same way): live events, a lost queue re-registered with the list on
// screen refetched (nothing lost, nothing twice), and a dropped connection reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../../../test/helpers/server.ts';
import { Api } from '../../api/http.ts';
import { Client } from '../../api/client.ts';
import { Store } from '../../store/index.ts';

async function until(what: string, fn: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('the client follows live messages, and a lost queue re-registers and refetches what it missed', async () => {
  const s = await startServer();
  const client = new Client(new Api({ base: `${s.baseUrl}/api/v1`, headers: { Authorization: 'Basic ' + Buffer.from(`${s.owner.email}:${s.owner.apiKey}`).toString('base64') } }), new Store(), { minDelayMs: 20, maxDelayMs: 100 });
  try {
    const alice = await s.createUser('Alice');
    await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'general' }], principals: [s.owner.email, alice.email] });
    const first = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'a', content: 'before' }, alice);

    await client.start();
    const store = client.store;
    assert.equal(store.unread.counts.value.total, 1);
    const list = store.messages.list([]);
    client.current = list;
    await client.loadInitial(list);
    assert.deepEqual(list.ids, [first.id]);
    assert.equal(list.anchor, first.id);

    const live = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'a', content: 'live' }, alice);
    await until('the live message', () => list.ids.includes(live.id));
    assert.equal(store.unread.counts.value.total, 2);

    // The server forgets the queue; a message is sent before the client notices.
    const oldQueue = client.queue!.queueId!;
    await s.ok('DELETE', '/api/v1/events', { queue_id: oldQueue });
    const missed = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'b', content: 'in the gap' }, alice);
    // Wake the poll: the next event for the old queue is never delivered, so the poll that
    // was waiting ends with BAD_EVENT_QUEUE_ID on its next round.
    await until('a new queue', () => client.queue!.queueId !== oldQueue, 8000);
    await until('the missed message', () => list.ids.includes(missed.id));
    const after = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'b', content: 'after' }, alice);
    await until('the message after', () => list.ids.includes(after.id));
    assert.deepEqual(list.ids, [first.id, live.id, missed.id, after.id]);
    assert.equal(new Set(list.ids).size, list.ids.length);
    assert.equal(store.unread.counts.value.total, 4);
    assert.equal(client.status.value, 'connected');
  } finally {
    await client.stop();
    await s.close();
  }
});

test('a server that goes away makes the client report reconnecting', async () => {
  const s = await startServer();
  const client = new Client(new Api({ base: `${s.baseUrl}/api/v1`, headers: { Authorization: 'Basic ' + Buffer.from(`${s.owner.email}:${s.owner.apiKey}`).toString('base64') } }), new Store(), { minDelayMs: 20, maxDelayMs: 100 });
  await client.start();
  assert.equal(client.status.value, 'connected');
  await s.close();
  try {
    await until('reconnecting', () => client.status.value === 'reconnecting', 8000);
  } finally {
    await client.stop();
  }
});

test('register without credentials is refused with 401', async () => {
  const s = await startServer();
  const client = new Client(new Api({ base: `${s.baseUrl}/api/v1` }), new Store());
  try {
    await assert.rejects(client.start(), (e: { status?: number }) => e.status === 401);
  } finally {
    await s.close();
  }
});

test('a first page asked for again while on its way shares its answer, an error too (the view waited on nothing)', async () => {
  const s = await startServer();
  const client = new Client(new Api({ base: `${s.baseUrl}/api/v1`, headers: { Authorization: 'Basic ' + Buffer.from(`${s.owner.email}:${s.owner.apiKey}`).toString('base64') } }), new Store());
  try {
    const gone = client.store.messages.list([{ operator: 'stream', operand: 99999 }]);
    const first = client.loadInitial(gone);
    const second = client.loadInitial(gone);
    await assert.rejects(first, /unknown stream/);
    await assert.rejects(second, /unknown stream/);
    await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'a', content: 'hello' });
    const all = client.store.messages.list([]);
    await Promise.all([client.loadInitial(all), client.loadInitial(all)]);
    assert.equal(all.ids.length, 1);
  } finally {
    await s.close();
  }
});
