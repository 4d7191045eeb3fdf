// Names and topics compare case-insensitively across all of Unicode on both databases (SQLite's
// built-in lower() folds only ASCII).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';

test('stream names and topics with non-ASCII capitals match whatever their case', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'Ärger' }] });
  const again = await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'ärger' }] });
  assert.deepEqual(again.subscribed, {});
  assert.deepEqual(again.already_subscribed, { [s.owner.email]: ['Ärger'] });
  const streamId = (await s.ok('GET', '/api/v1/get_stream_id', { stream: 'äRGER' })).stream_id as number;

  const sent = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: streamId, topic: 'Über', content: 'x' });
  const narrow = [{ operator: 'channel', operand: streamId }, { operator: 'topic', operand: 'üBER' }];
  const found = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow });
  assert.deepEqual(found.messages.map((m: { id: number }) => m.id), [sent.id]);
});
