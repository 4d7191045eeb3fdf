// What compose says the organization's rules refuse, before the server refuses it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { composeBlocked } from '../../store/permissions.ts';

const stream = (postPolicy: unknown, topic = 'lunch', content = 'hi') => ({ type: 'stream' as const, streamName: 'general', postPolicy, topic, content });

test("a stream's post policy refuses the roles below it", () => {
  assert.equal(composeBlocked(stream(1), 600, {}), null);
  assert.equal(composeBlocked(stream(2), 400, {}), 'Only administrators can post in #general.');
  assert.equal(composeBlocked(stream(2), 200, {}), null);
  assert.equal(composeBlocked(stream(4), 400, {}), 'Only moderators and administrators can post in #general.');
  assert.equal(composeBlocked(stream(4), 300, {}), null);
  assert.equal(composeBlocked(stream(3), 600, {}), 'Only full members can post in #general.');
  assert.equal(composeBlocked(stream(3), 400, {}), null);
});

test('required topics refuse an empty topic once there is something to send', () => {
  assert.equal(composeBlocked(stream(1, '', ''), 400, { mandatory_topics: true }), null);
  assert.match(composeBlocked(stream(1, ' ', 'hi'), 400, { mandatory_topics: true }) ?? '', /Topics are required/);
  assert.equal(composeBlocked(stream(1, '', 'hi'), 400, { mandatory_topics: false }), null);
});

test('direct messages disabled, except to one bot', () => {
  const dm = (toOneBot: boolean, recipients = 1) => ({ type: 'private' as const, recipients, toOneBot });
  assert.match(composeBlocked(dm(false), 400, { private_message_policy: 2 }) ?? '', /disabled in this organization, except to a bot/);
  assert.equal(composeBlocked(dm(true), 400, { private_message_policy: 2 }), null);
  assert.equal(composeBlocked(dm(false, 0), 400, { private_message_policy: 2 }), null);
  assert.equal(composeBlocked(dm(false), 400, { private_message_policy: 1 }), null);
});
