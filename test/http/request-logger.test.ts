// The logger fastify gives each request: built only when the request logs at an enabled level,
// and then bound to the request's id as fastify's own child would be.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { RequestLogger } from '../../src/http/request-logger.ts';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { lines, parent: pino({ level: 'warn' }, stream) };
}

test('a request logger builds no child for disabled levels, and one child, bound to the request, for enabled ones', async () => {
  const { lines, parent } = capture();
  let children = 0;
  const child = parent.child.bind(parent);
  parent.child = ((...args: Parameters<typeof child>) => {
    children++;
    return child(...args);
  }) as typeof parent.child;

  const log = RequestLogger.factory(parent, { reqId: 'req-7' }, {});
  log.info('incoming request');
  log.debug({ x: 1 }, 'details');
  log.trace('more');
  assert.equal(children, 0);
  assert.equal(log.level, 'warn');

  log.warn({ code: 'X' }, 'first');
  log.error('second');
  assert.equal(children, 1);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(
    lines.map((l) => [l.reqId, l.msg, l.code]),
    [
      ['req-7', 'first', 'X'],
      ['req-7', 'second', undefined],
    ],
  );
});

test('a level given for the request (a route log level) is honoured', async () => {
  const { lines, parent } = capture();
  const log = RequestLogger.factory(parent, { reqId: 'req-8' }, { level: 'info' });
  assert.equal(log.level, 'info');
  log.info('logged at the route level');
  log.debug('still below it');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(
    lines.map((l) => [l.reqId, l.msg]),
    [['req-8', 'logged at the route level']],
  );
});
