// Event queues: register, long-poll, filters, errors, collection, and surviving a restart.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { startServer } from '../helpers/server.ts';

test('register returns a queue, and a message sent later reaches a long-poll', async () => {
  const s = await startServer();
  try {
    const bob = await s.createUser('Bob');
    const reg = await s.ok('POST', '/api/v1/register', { event_types: ['message'] }, bob);
    assert.equal(typeof reg.queue_id, 'string');
    assert.equal(reg.last_event_id, -1);
    assert.equal(reg.service_feature_level, 186);
    const poll = s.ok('GET', '/api/v1/events', { queue_id: reg.queue_id, last_event_id: -1 }, bob);
    await s.ok('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify([bob.id]), content: 'hello **bob**' });
    const { events } = await poll;
    assert.equal(events.length, 1);
    assert.equal(events[0].type, 'message');
    assert.equal(events[0].id, 0);
    assert.equal(events[0].message.content, 'hello **bob**');
    assert.equal(events[0].message.content_type, 'text/x-markdown');
    assert.deepEqual(events[0].flags, []);
    assert.equal(events[0].raw_content, undefined);
    assert.equal(events[0].sender_queue_id, undefined);
  } finally {
    await s.close();
  }
});
