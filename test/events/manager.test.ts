// Delivery: an event's JSON is made once per client form and shared by the queues with that form;
// each client still gets exactly its own form, and every queue gets every event in order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClientCapabilities, ClientOptions } from '../../src/events/event-type.ts';
import { QueueManager } from '../../src/events/manager.ts';
import type { EventQueue } from '../../src/events/queue.ts';
import { CAPABILITY_NAMES } from '../../src/events/register.ts';
import { createLogger } from '../../src/log.ts';
import { encodeParams, httpRequest, startServer, type Account, type TestServer } from '../helpers/server.ts';

/** A long-poll's answer as the bytes the server sent. */
async function pollText(s: TestServer, as: Account, params: Record<string, unknown>): Promise<string> {
  const auth = `Basic ${Buffer.from(`${as.email}:${as.apiKey}`).toString('base64')}`;
  const res = await httpRequest(`${s.baseUrl}/api/v1/events?${encodeParams(params).toString()}`, 'GET', { authorization: auth });
  assert.equal(res.status, 200, res.text);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  return res.text;
}

const sendDm = (s: TestServer, to: Account[], content: string, as?: Account, extra: Record<string, unknown> = {}) =>
  s.ok('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify(to.map((a) => a.id)), content, ...extra }, as);

test('clients with the same options get the same bytes; other options, other bytes', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const html = { apply_markdown: true, client_external_avatar: false, event_types: ['message'] };
  const a = await s.ok('POST', '/api/v1/register', html);
  const b = await s.ok('POST', '/api/v1/register', html);
  const raw = await s.ok('POST', '/api/v1/register', { apply_markdown: false, client_external_avatar: true, event_types: ['message'] });
  const sender = await s.ok('POST', '/api/v1/register', html);
  await sendDm(s, [bob], 'x < **y**', s.owner, { queue_id: sender.queue_id, local_id: '7.5' });
  const text = async (reg: Record<string, any>) =>
    (await pollText(s, s.owner, { queue_id: reg.queue_id, last_event_id: -1, dont_block: true })).replace(reg.queue_id as string, 'Q');
  const [ta, tb, traw, tsender] = [await text(a), await text(b), await text(raw), await text(sender)];
  // The answer is the JSON the route layer always gave: the envelope's fields in their order.
  assert.equal(ta, JSON.stringify(JSON.parse(ta)));
  assert.ok(ta.startsWith('{"result":"success","msg":"","events":[{"type":"message","message":{'), ta);
  assert.ok(ta.endsWith(',"id":0}],"queue_id":"Q"}'), ta);
  assert.equal(ta, tb);
  const [ea, eraw, esender] = [ta, traw, tsender].map((t) => JSON.parse(t).events[0]);
  assert.equal(ea.message.content, '<p>x &lt; <strong>y</strong></p>');
  assert.match(ea.message.avatar_url, /^https:/);
  assert.equal(eraw.message.content, 'x < **y**');
  assert.equal(eraw.message.content_type, 'text/x-markdown');
  assert.equal(eraw.message.avatar_url, null);
  assert.notEqual(traw, ta);
  // The sending queue's form differs only by its local_message_id.
  assert.equal(esender.local_message_id, '7.5');
  assert.equal('local_message_id' in ea, false);
  const { local_message_id: _l, ...rest } = esender;
  assert.deepEqual(rest, ea);
  // Asking again for the same events gives the same bytes.
  assert.equal(await text(a), ta);
});

test('unknown parameters of a long-poll are still reported beside its events', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const reg = await s.ok('POST', '/api/v1/register', { event_types: ['message'] });
  const body = JSON.parse(await pollText(s, s.owner, { queue_id: reg.queue_id, dont_block: true, bogus: 1 }));
  assert.deepEqual(body, { result: 'success', msg: '', events: [], queue_id: reg.queue_id, ignored_parameters_unsupported: ['bogus'] });
});

test('every queue gets every event, in the same order, whether polling or not', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  const regs = [
    await s.ok('POST', '/api/v1/register', { apply_markdown: true, event_types: ['message'] }, bob),
    await s.ok('POST', '/api/v1/register', { apply_markdown: false, event_types: ['message'] }, bob),
    await s.ok('POST', '/api/v1/register', { apply_markdown: true, event_types: ['message'] }, bob),
  ];
  const n = 12;
  // The first queue long-polls all along (acknowledging what it got); the others are read at the end.
  const polled: Record<string, any>[] = [];
  const polling = (async () => {
    let last = -1;
    while (polled.length < 2 * n) {
      const { events } = await s.ok('GET', '/api/v1/events', { queue_id: regs[0]!.queue_id, last_event_id: last }, bob);
      polled.push(...events);
      last = events.at(-1)?.id ?? last;
    }
  })();
  for (let i = 0; i < n; i++) await sendDm(s, [bob], `one by one ${i}`);
  await Promise.all(Array.from({ length: n }, (_, i) => sendDm(s, [bob], `at once ${i}`)));
  await polling;
  const queued = [polled];
  for (const reg of regs.slice(1)) queued.push((await s.ok('GET', '/api/v1/events', { queue_id: reg.queue_id, last_event_id: -1, dont_block: true }, bob)).events);
  for (const events of queued) {
    assert.deepEqual(events.map((e) => e.id), Array.from({ length: 2 * n }, (_, i) => i));
    assert.deepEqual(events.slice(0, n).map((e) => e.message.content.replace(/<\/?p>/g, '')), Array.from({ length: n }, (_, i) => `one by one ${i}`));
  }
  const order = (events: Record<string, any>[]) => events.map((e) => e.message.id as number);
  assert.deepEqual(order(queued[1]!), order(queued[0]!));
  assert.deepEqual(order(queued[2]!), order(queued[0]!));
  assert.deepEqual(new Set(queued[0]!.slice(n).map((e) => e.message.content.replace(/<\/?p>/g, ''))), new Set(Array.from({ length: n }, (_, i) => `at once ${i}`)));
});

function client(over: Partial<ClientOptions>): Omit<ClientOptions, 'queueId'> {
  const capabilities = Object.fromEntries(CAPABILITY_NAMES.map((c) => [c, false])) as unknown as ClientCapabilities;
  return { userId: 1, realmId: 1, applyMarkdown: true, clientExternalAvatar: false, includeSubscribers: false, allPublicStreams: false, narrow: [], capabilities, ...over };
}

test('a published event is serialized once per client form, and each queue gets exactly its own JSON', (t) => {
  const manager = new QueueManager({ timeoutSeconds: 600, heartbeatSeconds: 600, log: createLogger('silent') });
  t.after(() => manager.stop());
  const queues: EventQueue[] = [
    manager.create(client({}), null),
    manager.create(client({}), null),
    manager.create(client({ applyMarkdown: false }), null),
    manager.create(client({}), null),
  ];
  let serialized = 0;
  // A part of the message every form shares: counts how often a form is serialized.
  const reactions = Object.assign([], { toJSON: () => (serialized++, []) });
  const message = {
    id: 5, type: 'private', content: '<p>hi — ✓ 😀</p>', content_type: 'text/html', avatar_url: 'https://a.example/x.png',
    display_recipient: [{ id: 1 }], sender_id: 1, subject: '', reactions,
  };
  manager.publish({
    type: 'message', message, flags: ['read'], raw_content: 'hi', sender_queue_id: queues[3]!.id, local_message_id: '1.5',
    sender_avatar_external: false, realm_id: 1, public_stream: false,
  } as never, [1]);
  // An event that carries an `id` of its own keeps its place for the queue-local id.
  manager.publish({ type: 'custom_thing', id: 99, value: 'v' } as never, [1]);
  const texts = queues.map((q) => q.eventsJson(q.newerThan(-1)));
  // Three forms: rendered, raw, and the sender's (with its local_message_id).
  assert.equal(serialized, 3);
  for (const [i, q] of queues.entries()) assert.equal(texts[i], JSON.stringify(q.newerThan(-1)));
  serialized = 3;
  assert.equal(texts[0], texts[1]);
  assert.notEqual(texts[2], texts[0]);
  assert.notEqual(texts[3], texts[0]);
  assert.deepEqual(JSON.parse(texts[0]!)[1], { type: 'custom_thing', id: 1, value: 'v' });
  // The long-poll's answer as bytes (UTF-8 copied from each form's, made once): the same JSON.
  for (const [i, q] of queues.entries()) {
    const bytes = q.eventsBytes(q.newerThan(-1), '{"events":', ',"queue_id":"é"}');
    assert.equal(bytes.toString('utf8'), `{"events":${texts[i]},"queue_id":"é"}`);
    assert.equal(q.eventsBytes([], '<', '>').toString(), '<[]>');
  }
  // Answering again (a poll that did not acknowledge) serializes nothing again.
  queues.map((q) => q.eventsJson(q.newerThan(-1)));
  queues.map((q) => q.eventsBytes(q.newerThan(-1), '', ''));
  assert.equal(serialized, 3);
});

test('a queue answered within the answer gap gets the events of the gap in one answer; a quiet one at once', async (t) => {
  t.mock.timers.enable({ apis: ['Date', 'setTimeout'] });
  // The gap's share drawn at random: none.
  t.mock.method(Math, 'random', () => 0);
  const manager = new QueueManager({ timeoutSeconds: 600, heartbeatSeconds: 600, answerGapMs: 10, log: createLogger('silent') });
  t.after(() => manager.stop());
  const q = manager.create(client({}), null);
  const note = (n: number) => manager.publish({ type: 'custom_thing', n } as never, [1]);
  const turn = () => new Promise((r) => setImmediate(r));
  const ns = (events: { id: number }[]) => events.map((e) => (e as unknown as { n: number }).n);
  let answer: { id: number }[] | null = null;
  const poll = (last: number) => {
    answer = null;
    void manager.wait(q, last, false, () => {}).then((events) => (answer = events));
  };
  // A quiet queue: the poll is answered in the turn the event arrives, with no time passing.
  poll(-1);
  note(1);
  await turn();
  assert.deepEqual(ns(answer!), [1]);
  // Events keep coming: the next poll is held until the gap has passed, then gets them all.
  poll(0);
  note(2);
  await turn();
  note(3);
  await turn();
  assert.equal(answer, null);
  t.mock.timers.tick(10);
  await turn();
  assert.deepEqual(ns(answer!), [2, 3]);
  // Events already waiting for a poll that comes back within the gap wait for its end too.
  note(4);
  poll(2);
  await turn();
  assert.equal(answer, null);
  t.mock.timers.tick(10);
  await turn();
  assert.deepEqual(ns(answer!), [4]);
  // dont_block answers at once, gap or not.
  note(5);
  assert.deepEqual(ns(await manager.wait(q, 3, true, () => {})), [5]);
  // After a quiet time longer than the gap, the next event goes at once again.
  t.mock.timers.tick(10);
  poll(4);
  note(6);
  await turn();
  assert.deepEqual(ns(answer!), [6]);
});

test('queues woken by the same events are held for gaps of their own, so their answers spread over time', async (t) => {
  t.mock.timers.enable({ apis: ['Date', 'setTimeout'] });
  const manager = new QueueManager({ timeoutSeconds: 600, heartbeatSeconds: 600, answerGapMs: 20, log: createLogger('silent') });
  t.after(() => manager.stop());
  const queues = [0, 1, 2, 3].map(() => manager.create(client({}), null));
  const draws = [0, 0.2, 0.6, 0.999];
  let draw = 0;
  t.mock.method(Math, 'random', () => draws[draw++ % draws.length]!);
  const turn = () => new Promise((r) => setImmediate(r));
  const answeredAt: number[][] = queues.map(() => []);
  const last = queues.map(() => -1);
  const poll = (i: number) =>
    void manager.wait(queues[i]!, last[i], false, () => {}).then((events) => {
      answeredAt[i]!.push(Date.now());
      last[i] = Math.max(last[i]!, ...events.map((e) => e.id));
      poll(i);
    });
  queues.forEach((_, i) => poll(i));
  // An event every 2 ms for 60 ms, to all four.
  for (let ms = 0; ms < 60; ms += 2) {
    manager.publish({ type: 'custom_thing', ms } as never, [1]);
    await turn();
    await turn();
    t.mock.timers.tick(2);
  }
  await turn();
  // All four at once at the first event; then each after 20 ms plus its own share of up to 10.
  assert.deepEqual(
    answeredAt.map((times) => times.slice(0, 2)),
    [
      [0, 20],
      [0, 22],
      [0, 26],
      [0, 30],
    ],
  );
});

test('a poll\'s heartbeat is its own: one replaced by a newer poll, or whose client left, leaves none behind', (t) => {
  t.mock.timers.enable({ apis: ['Date', 'setTimeout'] });
  // Every heartbeat at 90% of the period: 90 s.
  t.mock.method(Math, 'random', () => 0);
  const manager = new QueueManager({ timeoutSeconds: 600, heartbeatSeconds: 100, log: createLogger('silent') });
  t.after(() => manager.stop());
  const q = manager.create(client({}), null);
  const answers: string[] = [];
  const waiter = (name: string) => ({
    lastEventId: -1,
    session: null,
    respond: (events: { type: string }[]) => answers.push(`${name}: ${events.map((e) => e.type).join(',')}`),
    fail: () => answers.push(`${name} failed`),
  });
  assert.equal(manager.listen(q, -1, false, waiter('first')), null);
  t.mock.timers.tick(50_000);
  // A newer poll ends the first; the first one's heartbeat (due at 90 s) must not answer it.
  assert.equal(manager.listen(q, -1, false, waiter('second')), null);
  t.mock.timers.tick(45_000);
  assert.deepEqual(answers, ['first: ']);
  t.mock.timers.tick(45_000);
  assert.deepEqual(answers, ['first: ', 'second: heartbeat']);
  // A poll whose client left gets no heartbeat, and the queue is idle from then on.
  const third = waiter('third');
  assert.equal(manager.listen(q, 0, false, third), null);
  t.mock.timers.tick(10_000);
  q.abandon(third);
  assert.equal(q.waiter, null);
  assert.equal(q.data.lastActivity, Date.now());
  t.mock.timers.tick(100_000);
  assert.deepEqual(answers, ['first: ', 'second: heartbeat']);
  assert.deepEqual(q.newerThan(0), []);
});
