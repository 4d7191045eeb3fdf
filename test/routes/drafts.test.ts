import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../helpers/server.ts';
import { draftsSnapshot } from '../../src/events/event-types/drafts.ts';
import { snapshotContext, streamIdOf } from '../helpers/snapshot.ts';
import { setUserSettings } from '../helpers/factories.ts';

test('drafts: create, list newest first, edit and delete, each with its drafts event', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const streamId = await streamIdOf(s, 'general');
  s.published.length = 0;
  const created = await s.ok('POST', '/api/v1/drafts', {
    drafts: [
      { type: 'stream', to: [streamId], topic: 'plans', content: 'first', timestamp: 1000 },
      { type: 'private', to: [alice.id, alice.id], topic: '', content: 'second' },
      { type: '', to: [], topic: 'ignored', content: 'third', timestamp: 500 },
    ],
  });
  assert.equal(created.ids.length, 3);
  const [a, b, c] = created.ids as number[];
  assert.equal(s.published.length, 1);
  assert.deepEqual(s.published[0]!.userIds, [s.owner.id]);
  assert.equal(s.published[0]!.event.type, 'drafts');
  assert.equal(s.published[0]!.event.op, 'add');
  assert.deepEqual(s.published[0]!.event.drafts.map((d: any) => d.id), [a, b, c]);

  const got = await s.ok('GET', '/api/v1/drafts');
  assert.equal(got.count, 3);
  // Newest edit first: the draft without a timestamp got the server's time.
  assert.deepEqual(got.drafts.map((d: any) => d.id), [b, a, c]);
  assert.deepEqual(got.drafts[1], { id: a, type: 'stream', to: [streamId], topic: 'plans', content: 'first', timestamp: 1000 });
  assert.deepEqual(got.drafts[0].to, [alice.id]);
  assert.ok(Math.abs(got.drafts[0].timestamp - Date.now() / 1000) < 60);
  assert.deepEqual(got.drafts[2], { id: c, type: '', to: [], topic: '', content: 'third', timestamp: 500 });

  s.published.length = 0;
  await s.ok('PATCH', `/api/v1/drafts/${c}`, { draft: { type: 'private', to: [alice.id], topic: '', content: 'edited', timestamp: 2000 } });
  assert.deepEqual(s.published.map((p) => [p.event, p.userIds]), [
    [{ type: 'drafts', op: 'update', draft: { id: c, type: 'private', to: [alice.id], topic: '', content: 'edited', timestamp: 2000 } }, [s.owner.id]],
  ]);
  s.published.length = 0;
  await s.ok('DELETE', `/api/v1/drafts/${a}`);
  assert.deepEqual(s.published.map((p) => [p.event, p.userIds]), [[{ type: 'drafts', op: 'remove', draft_id: a }, [s.owner.id]]]);
  const after = await s.ok('GET', '/api/v1/drafts');
  assert.deepEqual(after.drafts.map((d: any) => d.id), [b, c]);

  // Other users' drafts are theirs alone.
  assert.deepEqual((await s.ok('GET', '/api/v1/drafts', {}, alice)).drafts, []);
  const notHers = await s.api('DELETE', `/api/v1/drafts/${b}`, {}, { as: alice });
  assert.equal(notHers.status, 404);
  assert.deepEqual([notHers.body.code, notHers.body.msg], ['BAD_REQUEST', 'Draft does not exist']);

  const snap = await draftsSnapshot(await snapshotContext(s, s.owner.id));
  assert.deepEqual(snap.drafts, after.drafts);
});

test('drafts: every documented validation error', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const streamId = await streamIdOf(s, 'general');
  const cases: [unknown, string][] = [
    [[{ type: 'stream', to: [], topic: 't', content: 'x' }], 'Must specify exactly 1 stream ID for stream messages'],
    [[{ type: 'stream', to: [streamId, streamId + 1], topic: 't', content: 'x' }], 'Must specify exactly 1 stream ID for stream messages'],
    [[{ type: 'stream', to: [99999], topic: 't', content: 'x' }], 'Invalid stream ID'],
    [[{ type: 'private', to: [99999], topic: '', content: 'x' }], 'Invalid user ID 99999'],
    [[{ type: 'stream', to: [streamId], topic: 'a\u0000b', content: 'x' }], 'drafts contains a null byte'],
    [[{ type: '', to: [], topic: '', content: 'a\u0000b' }], 'drafts contains a null byte'],
    [[{ id: 3, type: '', to: [], topic: '', content: 'x' }], "drafts[0]: a draft's id is assigned by the server and must not be sent"],
    [[{ type: 'huddle', to: [], topic: '', content: 'x' }], 'Invalid drafts[0]["type"]'],
    [[{ type: '', to: [], topic: '' }], 'drafts[0]["content"] is missing'],
    [[{ type: '', to: [], topic: '', content: 'x', timestamp: -5 }], 'Timestamp must not be negative.'],
    [{ type: '' }, 'drafts is not a list'],
  ];
  for (const [drafts, msg] of cases) {
    const res = await s.api('POST', '/api/v1/drafts', { drafts });
    assert.equal(res.status, 400, msg);
    assert.deepEqual([res.body.code, res.body.msg], ['BAD_REQUEST', msg]);
  }
  // Nothing was stored by the refused requests (one bad draft refuses the whole list).
  const mixed = await s.api('POST', '/api/v1/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'ok' }, { type: 'stream', to: [], topic: '', content: 'x' }] });
  assert.equal(mixed.status, 400);
  assert.equal((await s.ok('GET', '/api/v1/drafts')).count, 0);
  // No drafts at all is fine.
  assert.deepEqual((await s.ok('POST', '/api/v1/drafts', {})).ids, []);
  const missing = await s.api('PATCH', '/api/v1/drafts/12345', { draft: { type: '', to: [], topic: '', content: 'x' } });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.msg, 'Draft does not exist');
  const noDraft = await s.api('PATCH', '/api/v1/drafts/12345', {});
  assert.equal(noDraft.body.code, 'REQUEST_VARIABLE_MISSING');
});

test('drafts: a user who turned synchronization off cannot store drafts', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await setUserSettings(s, s.owner, { enable_drafts_synchronization: false });
  const res = await s.api('POST', '/api/v1/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'x' }] });
  assert.equal(res.status, 400);
  assert.equal(res.body.msg, 'User has disabled synchronizing drafts.');
});

test('drafts: doDeleteAllDrafts removes them with remove events (for the settings action)', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { ids } = await s.ok('POST', '/api/v1/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'x' }, { type: '', to: [], topic: '', content: 'y' }] });
  const { runAction } = await import('../../src/actions/action.ts');
  const { doDeleteAllDrafts } = await import('../../src/actions/drafts.ts');
  s.published.length = 0;
  await runAction(s.server.app, (scope) => doDeleteAllDrafts(scope, s.owner.id));
  assert.deepEqual(s.published.map((p) => p.event.draft_id).sort(), [...ids].sort());
  assert.equal((await s.ok('GET', '/api/v1/drafts')).count, 0);
});
