// Each action's events, applied to the state a client fetched before, give the state it fetches after.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../helpers/server.ts';
import { userTopicSnapshot } from '../../../src/events/event-types/user_topic.ts';
import { mutedTopicsSnapshot } from '../../../src/events/event-types/muted_topics.ts';
import type { SnapshotContext } from '../../../src/events/event-type.ts';
import { db, streamId } from '../../helpers/subscriptions.ts';

async function snapshotCtx(s: TestServer, userId: number): Promise<SnapshotContext> {
  const realm = await db(s).selectFrom('realms').selectAll().executeTakeFirstOrThrow();
  const user = await db(s).selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  return { app: s.server.app, realm, user, clientCapabilities: {}, applyMarkdown: true, clientExternalAvatar: false, includeSubscribers: true, slimPresence: false };
}

test('subscription update events applied to the old subscriptions give the new ones', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const general = await streamId(s, 'general');
  const fetchSubs = async () => (await s.ok('GET', '/api/v1/users/me/subscriptions')).subscriptions as Record<string, unknown>[];
  const changes = [
    { stream_id: general, property: 'color', value: '#abcdef' },
    { stream_id: general, property: 'in_home_view', value: false },
    { stream_id: general, property: 'pin_to_top', value: true },
    { stream_id: general, property: 'wildcard_mentions_notify', value: false },
    { stream_id: general, property: 'email_notifications', value: true },
    { stream_id: general, property: 'email_notifications', value: null },
  ];
  for (const change of changes) {
    const before = await fetchSubs();
    s.published.length = 0;
    await s.ok('POST', '/api/v1/users/me/subscriptions/properties', { subscription_data: [change] });
    for (const { event } of s.published) {
      assert.equal(event.type, 'subscription');
      const sub = before.find((x) => x.stream_id === event.stream_id)!;
      sub[event.property as string] = event.value;
    }
    assert.deepEqual(before, await fetchSubs(), JSON.stringify(change));
  }
});

test('user_topic and muted_topics events applied to the old snapshot give the new one', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const general = await streamId(s, 'general');
  const steps: [string, number][] = [
    ['lunch', 1],
    ['work', 3],
    ['lunch', 2],
    ['LUNCH', 1],
    ['work', 0],
  ];
  for (const [topic, policy] of steps) {
    const ctx = await snapshotCtx(s, s.owner.id);
    const before = (await userTopicSnapshot(ctx)).user_topics as Record<string, unknown>[];
    let muted = (await mutedTopicsSnapshot(ctx)).muted_topics;
    s.published.length = 0;
    await s.ok('POST', '/api/v1/user_topics', { stream_id: general, topic, visibility_policy: policy });
    let after = before;
    for (const { event } of s.published) {
      if (event.type === 'muted_topics') muted = event.muted_topics;
      if (event.type !== 'user_topic') continue;
      const { type: _type, ...setting } = event;
      void _type;
      const same = (x: Record<string, unknown>) => x.stream_id === setting.stream_id && String(x.topic_name).toLowerCase() === String(setting.topic_name).toLowerCase();
      const i = after.findIndex(same);
      if (setting.visibility_policy === 0) after = after.filter((x) => !same(x));
      else if (i >= 0) after = after.map((x, j) => (j === i ? setting : x));
      else after = [...after, setting];
    }
    const fresh = await snapshotCtx(s, s.owner.id);
    assert.deepEqual(after, (await userTopicSnapshot(fresh)).user_topics, `${topic} ${policy}`);
    assert.deepEqual(muted, (await mutedTopicsSnapshot(fresh)).muted_topics);
  }
});
