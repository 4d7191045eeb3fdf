// Why a message cannot be edited, as the `e` key says it (it did nothing before).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canEdit, canMoveTopic, editRefusal, ROLE } from '../../store/permissions.ts';
import { ALICE, streamMessage } from './fixtures.ts';

const m = streamMessage(1);
const rules = (realm: Record<string, unknown> = {}, now = m.timestamp + 60) => ({ me: ALICE, role: ROLE.MEMBER, realm, now });

test("your own recent message can be edited; someone else's cannot, even by the owner", () => {
  assert.equal(editRefusal(m, rules()), null);
  assert.equal(canEdit(m, rules()), true);
  assert.equal(editRefusal(m, { ...rules(), me: ALICE + 1, role: ROLE.OWNER }), 'You can only edit your own messages.');
});

test("past the organization's time limit the limit is named; a limit of 0 means none", () => {
  assert.equal(editRefusal(m, rules({}, m.timestamp + 601)), 'The time limit for editing this message (10 minutes) has passed.');
  assert.equal(editRefusal(m, rules({ message_content_edit_limit_seconds: 3600 }, m.timestamp + 3601)), 'The time limit for editing this message (1 hour) has passed.');
  assert.equal(editRefusal(m, rules({ message_content_edit_limit_seconds: 2 * 86400 }, m.timestamp + 3 * 86400)), 'The time limit for editing this message (2 days) has passed.');
  assert.equal(editRefusal(m, rules({ message_content_edit_limit_seconds: 90 }, m.timestamp + 100)), 'The time limit for editing this message (90 seconds) has passed.');
  assert.equal(editRefusal(m, rules({ message_content_edit_limit_seconds: 0 }, m.timestamp + 10 * 86400)), null);
});

test('editing turned off, and polls and todo lists, are said as such', () => {
  assert.equal(editRefusal(m, rules({ allow_message_editing: false })), 'Editing messages is turned off in this organization.');
  const poll = streamMessage(2, { submessages: [{ msg_type: 'widget', content: '{}', sender_id: ALICE, message_id: 2, id: 1 }] } as never);
  assert.equal(editRefusal(poll, rules({}, poll.timestamp + 1)), 'A poll or a todo list cannot be edited.');
});

test('"Any time" (a null limit, as the organization settings save it) lets an old message be edited and its topic moved', () => {
  const old = m.timestamp + 30 * 86400;
  assert.equal(editRefusal(m, rules({ message_content_edit_limit_seconds: null }, old)), null);
  assert.equal(canMoveTopic(m, rules({ move_messages_within_stream_limit_seconds: null }, old)), true);
  // Without the setting at all the defaults hold (10 minutes, a week).
  assert.notEqual(editRefusal(m, rules({}, old)), null);
  assert.equal(canMoveTopic(m, rules({}, old)), false);
});
