// A change that commits while `register` is being answered reaches the new client either in the
// snapshot or as an event applied to it, never neither: the hooks of register.ts run an action
// at the two points where it can happen (after the queue exists, before and after the snapshot).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEvents, registerHooks } from '../../src/events/register.ts';
import type { QueuedEvent } from '../../src/events/types.ts';
import { startServer, type Account, type TestServer } from '../helpers/server.ts';

type HookPoint = keyof typeof registerHooks;

/**
 * Registers `as` for one group while `action` runs at `point`; returns what the client holds
 * (the snapshot with the events it then polls applied) and a fresh snapshot.
 */
async function raceRegister(s: TestServer, as: Account, group: string, point: HookPoint, action: () => Promise<unknown>) {
  registerHooks[point] = async () => {
    registerHooks[point] = null;
    await action();
  };
  const params = { fetch_event_types: [group], event_types: [group], client_capabilities: { user_settings_object: true } };
  // eslint-disable-next-line no-restricted-syntax -- the hook is set for one register call and unset after it, not torn down with the test
  try {
    const got = await s.ok('POST', '/api/v1/register', params, as);
    assert.equal(registerHooks[point], null, 'the hook ran');
    const { events } = (await s.ok('GET', '/api/v1/events', { queue_id: got.queue_id, last_event_id: got.last_event_id, dont_block: true }, as)) as { events: QueuedEvent[] };
    const held: Record<string, unknown> = { [group]: structuredClone(got[group]) };
    applyEvents(held, events, s.server.app.queues!.get(got.queue_id as string, as.id).data.client);
    const fresh = await s.ok('POST', '/api/v1/register', params, as);
    return { held: held[group], fresh: fresh[group] };
  } finally {
    registerHooks[point] = null;
  }
}

const POINTS: HookPoint[] = ['afterQueue', 'afterSnapshot'];

for (const point of POINTS) {
  test(`drafts: a draft created, edited or deleted during register (${point}) reaches the new client`, async (t) => {
    const s = await startServer();
    t.after(() => s.close());
    const draft = (content: string) => ({ type: '', to: [], topic: '', content, timestamp: 1000 });
    let id = 0;
    const created = await raceRegister(s, s.owner, 'drafts', point, async () => {
      id = ((await s.ok('POST', '/api/v1/drafts', { drafts: [draft('one')] })).ids as number[])[0]!;
    });
    assert.equal((created.fresh as unknown[]).length, 1);
    assert.deepEqual(created.held, created.fresh);
    const edited = await raceRegister(s, s.owner, 'drafts', point, () => s.ok('PATCH', `/api/v1/drafts/${id}`, { draft: { ...draft('two'), timestamp: 2000 } }));
    assert.deepEqual(edited.held, edited.fresh);
    const deleted = await raceRegister(s, s.owner, 'drafts', point, () => s.ok('DELETE', `/api/v1/drafts/${id}`));
    assert.deepEqual(deleted.fresh, []);
    assert.deepEqual(deleted.held, deleted.fresh);
  });

  test(`scheduled_messages: one scheduled, edited or deleted during register (${point}) reaches the new client`, async (t) => {
    const s = await startServer();
    t.after(() => s.close());
    const at = Math.floor(Date.now() / 1000) + 3600;
    const general = (await s.server.app.db.kysely.selectFrom('streams').select('id').where('name', '=', 'general').executeTakeFirstOrThrow()).id;
    await s.ok('POST', '/api/v1/scheduled_messages', { type: 'stream', to: general, topic: 'later', content: 'first', scheduled_delivery_timestamp: at });
    let id = 0;
    const created = await raceRegister(s, s.owner, 'scheduled_messages', point, async () => {
      ({ scheduled_message_id: id } = await s.ok('POST', '/api/v1/scheduled_messages', {
        type: 'stream', to: general, topic: 'later', content: 'second', scheduled_delivery_timestamp: at - 60,
      }));
    });
    assert.equal((created.fresh as unknown[]).length, 2);
    assert.deepEqual(created.held, created.fresh);
    const edited = await raceRegister(s, s.owner, 'scheduled_messages', point, () =>
      s.ok('PATCH', `/api/v1/scheduled_messages/${id}`, { content: 'second, edited', scheduled_delivery_timestamp: at + 60 }),
    );
    assert.deepEqual(edited.held, edited.fresh);
    const deleted = await raceRegister(s, s.owner, 'scheduled_messages', point, () => s.ok('DELETE', `/api/v1/scheduled_messages/${id}`));
    assert.equal((deleted.fresh as unknown[]).length, 1);
    assert.deepEqual(deleted.held, deleted.fresh);
  });

  test(`muted_users: a user muted or unmuted during register (${point}) reaches the new client`, async (t) => {
    const s = await startServer();
    t.after(() => s.close());
    const alice = await s.createUser('Alice');
    const muted = await raceRegister(s, s.owner, 'muted_users', point, () => s.ok('POST', `/api/v1/users/me/muted_users/${alice.id}`));
    assert.equal((muted.fresh as unknown[]).length, 1);
    assert.deepEqual(muted.held, muted.fresh);
    const unmuted = await raceRegister(s, s.owner, 'muted_users', point, () => s.ok('DELETE', `/api/v1/users/me/muted_users/${alice.id}`));
    assert.deepEqual(unmuted.fresh, []);
    assert.deepEqual(unmuted.held, unmuted.fresh);
  });
}
