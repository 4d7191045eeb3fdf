// The idle watch: calls for the first quiet periods that follow the start or requests, none while
// requests keep coming; and the full collection the server runs then.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { collectGarbage, watchIdle } from '../../src/http/idle.ts';

const PERIOD_MS = 6000;

/** A server, and a GET that resolves once it has been answered. */
async function listening(t: TestContext): Promise<{ server: http.Server; get(): Promise<void> }> {
  const server = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as { port: number };
  return { server, get: async () => void (await (await fetch(`http://127.0.0.1:${port}/`)).text()) };
}

/** The watch's clock: whole periods pass when the test says so. */
function periods(t: TestContext): (n: number) => void {
  t.mock.timers.enable({ apis: ['setInterval'] });
  return (n) => {
    for (let i = 0; i < n; i++) t.mock.timers.tick(PERIOD_MS);
  };
}

test('an idle watch calls for the first quiet periods after the start, then after requests', async (t) => {
  const pass = periods(t);
  const { server, get } = await listening(t);
  const calls: number[] = [];
  const watch = watchIdle(server, PERIOD_MS, 2, (n) => calls.push(n));
  t.after(() => watch.stop());

  pass(1);
  assert.deepEqual(calls, [1], 'the start is followed by a quiet period');
  pass(4);
  assert.deepEqual(calls, [1, 2], 'two calls, however long the quiet lasts');

  await get();
  pass(1);
  assert.deepEqual(calls, [1, 2], 'a request came within this period');
  pass(1);
  assert.deepEqual(calls, [1, 2, 1], 'a whole period without one');
  await get();
  await get();
  pass(3);
  assert.deepEqual(calls, [1, 2, 1, 1, 2], 'requests start the count again');
});

test('an idle watch does not call while requests keep coming, and stops calling once stopped', async (t) => {
  const pass = periods(t);
  const { server, get } = await listening(t);
  const calls: number[] = [];
  const watch = watchIdle(server, PERIOD_MS, 2, (n) => calls.push(n));
  await get(); // within the first period, so the start's quiet is not seen either
  for (let i = 0; i < 5; i++) {
    await get();
    pass(1);
  }
  assert.deepEqual(calls, []);

  watch.stop();
  pass(3);
  assert.deepEqual(calls, [], 'stopped before the quiet was seen');
});

test('collectGarbage runs a full collection', async () => {
  const ref = new WeakRef({ garbage: true });
  // A WeakRef's target lives at least until the end of the job that made it.
  await sleep(0);
  collectGarbage();
  assert.equal(ref.deref(), undefined);
});
