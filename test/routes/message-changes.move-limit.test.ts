// The realm's move time limit as PATCH /messages enforces it (the spec's rule 4 of "Edit a
// message"). PATCH /messages is built in issue 4; this test is enabled when it lands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { routes } from '../../src/routes/index.ts';
import { ageMessages } from '../helpers/factories.ts';

const hasEdit = routes.some((r) => r.method === 'PATCH' && r.path === '/messages/{message_id}');

test(
  'a few-second move_messages_within_stream_limit_seconds makes a member\'s older messages unmovable',
  hasEdit ? {} : { todo: 'needs PATCH /messages from issue 4' },
  async (t) => {
    const s = await startServer();
    t.after(() => s.close());
    const member = await s.createUser('Member');
    await s.ok('PATCH', '/api/v1/realm', { move_messages_within_stream_limit_seconds: 5, edit_topic_policy: 1 });
    const old = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'plans', content: 'first' }, member);
    const recent = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'plans', content: 'second' }, member);
    // Age the first message past the limit instead of waiting.
    await ageMessages(s, [old.id], 60);

    const one = await s.api('PATCH', `/api/v1/messages/${old.id}`, { topic: 'moved', propagate_mode: 'change_one' }, { as: member });
    assert.equal(one.status, 400);

    const all = await s.api('PATCH', `/api/v1/messages/${recent.id}`, { topic: 'moved', propagate_mode: 'change_all' }, { as: member });
    assert.equal(all.status, 400);
    assert.equal(all.body.code, 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED');
    assert.equal(all.body.first_message_id_allowed_to_move, recent.id);
    assert.equal(all.body.total_messages_in_topic, 2);
    assert.equal(all.body.total_messages_allowed_to_move, 1);

    // The recent message alone may move; administrators are exempt from the limit.
    await s.ok('PATCH', `/api/v1/messages/${recent.id}`, { topic: 'moved', propagate_mode: 'change_one' }, member);
    await s.ok('PATCH', `/api/v1/messages/${old.id}`, { topic: 'moved', propagate_mode: 'change_one' });
  },
);
