// State-plus-events tests of the user's own things: drafts, scheduled messages, muted users and
// uploaded files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type Account, type TestServer } from '../helpers/server.ts';
import { kinds, verifyAction } from '../helpers/verify.ts';

async function streamId(s: TestServer, name: string): Promise<number> {
  return (await s.server.app.db.kysely.selectFrom('streams').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

test('drafts: add, update and remove keep the snapshot newest first', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const general = await streamId(s, 'general');
  await s.ok('POST', '/api/v1/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'old', timestamp: 500 }] });
  let ids: number[] = [];
  const add = await verifyAction(s, s.owner, async () => {
    ({ ids } = await s.ok('POST', '/api/v1/drafts', {
      drafts: [
        { type: 'stream', to: [general], topic: 'plans', content: 'one', timestamp: 1000 },
        { type: '', to: [], topic: '', content: 'two', timestamp: 100 },
      ],
    }));
  });
  assert.deepEqual(kinds(add), ['drafts:add']);
  const update = await verifyAction(s, s.owner, () => s.ok('PATCH', `/api/v1/drafts/${ids[1]}`, { draft: { type: '', to: [], topic: '', content: 'two, later', timestamp: 2000 } }));
  assert.deepEqual(kinds(update), ['drafts:update']);
  const remove = await verifyAction(s, s.owner, () => s.ok('DELETE', `/api/v1/drafts/${ids[0]}`));
  assert.deepEqual(kinds(remove), ['drafts:remove']);
});

test('scheduled_messages: add, update and remove keep the snapshot in delivery order', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const general = await streamId(s, 'general');
  const at = Math.floor(Date.now() / 1000) + 3600;
  await s.ok('POST', '/api/v1/scheduled_messages', { type: 'stream', to: general, topic: 'later', content: 'first', scheduled_delivery_timestamp: at });
  let id = 0;
  const add = await verifyAction(s, s.owner, async () => {
    ({ scheduled_message_id: id } = await s.ok('POST', '/api/v1/scheduled_messages', { type: 'direct', to: [alice.id], content: 'psst', scheduled_delivery_timestamp: at - 60 }));
  });
  assert.deepEqual(kinds(add), ['scheduled_messages:add']);
  const update = await verifyAction(s, s.owner, () => s.ok('PATCH', `/api/v1/scheduled_messages/${id}`, { scheduled_delivery_timestamp: at + 60 }));
  assert.deepEqual(kinds(update), ['scheduled_messages:update']);
  const remove = await verifyAction(s, s.owner, () => s.ok('DELETE', `/api/v1/scheduled_messages/${id}`));
  assert.deepEqual(kinds(remove), ['scheduled_messages:remove']);
});

test('muted_users: muting (with the muted user\'s messages read) and unmuting', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  await s.ok('POST', '/api/v1/messages', { type: 'private', to: JSON.stringify([s.owner.id]), content: 'hello' }, alice);
  const mute = await verifyAction(s, s.owner, () => s.ok('POST', `/api/v1/users/me/muted_users/${alice.id}`));
  assert.deepEqual(kinds(mute), ['muted_users', 'update_message_flags:add']);
  const unmute = await verifyAction(s, s.owner, () => s.ok('DELETE', `/api/v1/users/me/muted_users/${alice.id}`));
  assert.deepEqual(kinds(unmute), ['muted_users']);
});

function auth(as: Account): string {
  return 'Basic ' + Buffer.from(`${as.email}:${as.apiKey}`).toString('base64');
}

test('attachment add, update (linked by a message) and remove (no snapshot state)', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  let uri = '';
  const add = await verifyAction(s, s.owner, async () => {
    const form = new FormData();
    form.set('filename', new Blob(['some notes'], { type: 'text/plain' }), 'notes.txt');
    const res = await fetch(`${s.baseUrl}/api/v1/user_uploads`, { method: 'POST', headers: { authorization: auth(s.owner) }, body: form });
    assert.equal(res.status, 200);
    ({ uri } = (await res.json()) as { uri: string });
  });
  assert.deepEqual(kinds(add), ['attachment:add']);
  const linked = await verifyAction(s, s.owner, () => s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'files', content: `[notes](${uri})` }));
  assert.ok(kinds(linked).includes('attachment:update'));
  const id = (add[0]!.attachment as { id: number }).id;
  const remove = await verifyAction(s, s.owner, () => s.ok('DELETE', `/api/v1/attachments/${id}`));
  assert.ok(kinds(remove).includes('attachment:remove'));
});
