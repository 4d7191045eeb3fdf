// The notification bot's notices about streams, worded as the reference words them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/server.ts';
import { kinds, verifyAction } from '../helpers/verify.ts';

async function streamId(s: TestServer, name: string): Promise<number> {
  return (await s.ok('GET', '/api/v1/get_stream_id', { stream: name })).stream_id as number;
}

/** The raw messages of a topic, oldest first: who sent them and what they say. */
async function topicMessages(s: TestServer, stream: number, topic: string): Promise<{ sender: string; content: string }[]> {
  const r = await s.ok('GET', '/api/v1/messages', {
    anchor: 'oldest', num_before: 0, num_after: 100, apply_markdown: false, narrow: [['stream', stream], ['topic', topic]],
  });
  return (r.messages as { sender_full_name: string; content: string }[]).map((m) => ({ sender: m.sender_full_name, content: m.content }));
}

/** The message events to the stream's readers (the bot's own copy, read, left out) since the last reset. */
const messageEvents = (s: TestServer) =>
  s.published.filter((p) => p.event.type === 'message' && !p.event.flags.includes('read')).map((p) => [p.event.message.stream_id, p.event.message.subject, p.event.raw_content]);

test('renaming a stream, changing its description, access and posting policy each post a notice in "channel events"', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [s.owner.id, alice.id] });
  const id = await streamId(s, 'design');
  const owner = `@_**Olivia Owner|${s.owner.id}**`;

  s.published.length = 0;
  // The first notice brings the bot into the realm: an administrator's client follows (verify-action).
  const events = await verifyAction(s, s.owner, () => s.ok('PATCH', `/api/v1/streams/${id}`, { new_name: 'Design Team' }));
  assert.deepEqual(kinds(events), ['stream:update', 'realm_user:add', 'realm_bot:add', 'user_group:add_members', 'user_group:add_members', 'stream:update', 'message']);
  const renamed = `${owner} renamed channel **design** to **Design Team**.`;
  assert.deepEqual(messageEvents(s), [[id, 'channel events', renamed]]);
  // The stream's update comes first; the notice goes to its subscribers.
  assert.equal(s.published[0]!.event.type, 'stream');
  const notice = s.published.find((p) => p.event.type === 'message' && !p.event.flags.includes('read'))!;
  assert.deepEqual(notice.userIds.sort(), [s.owner.id, alice.id].sort());
  assert.equal(notice.event.message.sender_full_name, 'Notification Bot');

  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/streams/${id}`, { description: 'All design talk' });
  const described =
    `${owner} changed the description for this channel.\n\n` +
    '* **Old description:**\n```` quote\n*No description.*\n````\n* **New description:**\n```` quote\nAll design talk\n````';
  assert.deepEqual(messageEvents(s), [[id, 'channel events', described]]);

  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/streams/${id}`, { is_private: true });
  const access = `${owner} changed the [access permissions](/help/channel-permissions) for this channel from **Public** to **Private, protected history**.`;
  assert.deepEqual(messageEvents(s), [[id, 'channel events', access]]);
  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/streams/${id}`, { history_public_to_subscribers: true });
  const history = `${owner} changed the [access permissions](/help/channel-permissions) for this channel from **Private, protected history** to **Private, shared history**.`;
  assert.deepEqual(messageEvents(s), [[id, 'channel events', history]]);

  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/streams/${id}`, { stream_post_policy: 2 });
  const posting =
    `${owner} changed the [posting permissions](/help/channel-posting-policy) for this channel:\n\n` +
    '* **Old permissions**: All channel members can post.\n* **New permissions**: Only organization administrators can post.';
  assert.deepEqual(messageEvents(s), [[id, 'channel events', posting]]);

  // Nothing changed, nothing said.
  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/streams/${id}`, { new_name: 'Design Team', stream_post_policy: 2 });
  assert.deepEqual(messageEvents(s), []);
  assert.deepEqual(await topicMessages(s, id, 'channel events'), [renamed, described, access, history, posting].map((content) => ({ sender: 'Notification Bot', content })));
  // The notices are ordinary messages: the stream's subscribers have them, unread.
  const unread = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [['stream', id]] }, alice);
  assert.equal(unread.messages.length, 5);
  assert.ok(unread.messages.every((m: any) => !m.flags.includes('read')));
});

test('announce=true announces new streams in the new-stream announcements stream, as the reference words it', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const general = await streamId(s, 'general');
  const owner = `@_**Olivia Owner|${s.owner.id}**`;
  // No announcements stream: nothing to announce in.
  await s.ok('PATCH', '/api/v1/realm', { notifications_stream_id: -1 });
  s.published.length = 0;
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'quiet' }], announce: true });
  assert.deepEqual(messageEvents(s), []);

  await s.ok('PATCH', '/api/v1/realm', { notifications_stream_id: general });
  s.published.length = 0;
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'design' }], announce: true });
  assert.deepEqual(messageEvents(s), [[general, 'new channels', `${owner} created a new channel #**design**.`]]);
  s.published.length = 0;
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'alpha' }, { name: 'general' }, { name: 'beta' }], announce: true });
  assert.deepEqual(messageEvents(s), [[general, 'new channels', `${owner} created the following channels: #**alpha**, #**beta**.`]]);
  // Without announce, or when nothing is created, nothing is posted.
  s.published.length = 0;
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'gamma' }] });
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'design' }], announce: true });
  assert.deepEqual(messageEvents(s), []);
  const rendered = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [['stream', general], ['topic', 'new channels']] });
  assert.match(rendered.messages[0].content, /<span class="user-mention silent" data-user-id="\d+">Olivia Owner<\/span> created the following channels: <a class="stream"/);
});
