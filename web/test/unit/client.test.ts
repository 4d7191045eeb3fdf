// The client's actions, against an Api that answers when the test says: what is sent, in which
// order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Api, type Params } from '../../api/http.ts';
import { Client } from '../../api/client.ts';
import { Store } from '../../store/index.ts';
import { streamMessage } from './fixtures.ts';

/** Records each request and leaves it unanswered until `answer()`. */
class HeldApi extends Api {
  readonly sent: { method: string; path: string; params: Params; answer: () => void }[] = [];

  constructor() {
    super({ base: '/json' });
  }

  override request<T>(method: string, path: string, params: Params = {}): Promise<T> {
    return new Promise<T>((resolve) => this.sent.push({ method, path, params, answer: () => resolve({} as T) }));
  }
}

/** Lets promise callbacks run (the timers are mocked; setImmediate is not). */
const settle = () => new Promise((r) => setImmediate(r));

test('"Mark as unread" waits for a read mark already on its way, so the server ends with it unread', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const api = new HeldApi();
  const store = new Store();
  store.apply([{ type: 'message', message: streamMessage(104), flags: [] }]);
  const client = new Client(api, store);
  client.markRead([104]);
  assert.equal(store.unread.has(104), false);
  t.mock.timers.tick(300);
  await settle();
  assert.deepEqual(api.sent.map((r) => r.params.op), ['add']);
  // The person marks it unread while the read mark is unanswered.
  const unread = client.markUnreadFrom(104);
  await settle();
  assert.deepEqual(api.sent.map((r) => r.params.op), ['add']);
  api.sent[0]!.answer();
  await settle();
  assert.deepEqual(
    api.sent.map((r) => [r.path, r.params.op, r.params.messages]),
    [
      ['/messages/flags', 'add', [104]],
      ['/messages/flags', 'remove', [104]],
    ],
  );
  api.sent[1]!.answer();
  await unread;
});

test('drafts addressed to a topic moved as a whole follow it to its new stream and name, keeping their time', async () => {
  const api = new HeldApi();
  const store = new Store();
  const client = new Client(api, store);
  store.onTopicMoved = (move) => void client.moveDrafts(move);
  store.apply([
    {
      type: 'drafts',
      op: 'add',
      drafts: [
        { id: 1, type: 'stream', to: [1], topic: 'Plans', content: 'about the plans', timestamp: 100 },
        { id: 2, type: 'stream', to: [1], topic: 'other', content: 'elsewhere', timestamp: 101 },
        { id: 3, type: 'private', to: [7], topic: '', content: 'a DM', timestamp: 102 },
      ],
    },
  ]);
  const moved = (mode: string, subject: string) => ({ type: 'update_message', message_id: 10, message_ids: [10, 11], stream_id: 1, new_stream_id: 2, orig_subject: 'plans', subject, propagate_mode: mode, edit_timestamp: 200 });
  // Part of the topic moving leaves the drafts where they are.
  store.apply([moved('change_later', 'plans, part two')]);
  await settle();
  assert.equal(api.sent.length, 0);
  store.apply([moved('change_all', 'plans for spring')]);
  await settle();
  assert.deepEqual(
    api.sent.map((r) => [r.method, r.path, r.params.draft]),
    [['PATCH', '/drafts/1', { type: 'stream', to: [2], topic: 'plans for spring', content: 'about the plans', timestamp: 100 }]],
  );
  api.sent[0]!.answer();
  await settle();
});
