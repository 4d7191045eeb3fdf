// The verify-action check: fetch a client's state, run an action, apply the events the client
// received to the old state, and compare with a freshly fetched state. Every received event is
// also checked against the reference's event schema.
import assert from 'node:assert/strict';
import { applyEvents } from '../../src/events/register.ts';
import type { QueuedEvent } from '../../src/events/types.ts';
import { checkEvent } from './openapi.ts';
import type { Account, Params, TestServer } from './server.ts';

/** Fields that differ between two registers without any change. */
const VOLATILE = ['queue_id', 'last_event_id', 'server_timestamp'];

function stable(state: Record<string, unknown>): Record<string, unknown> {
  const out = { ...state };
  for (const k of VOLATILE) delete out[k];
  delete out.result;
  delete out.msg;
  return out;
}

export interface VerifyOptions {
  /** Register parameters of the observing client. */
  register?: Params;
}

/** Runs `action` observed by `as`'s client; returns the events that client received. */
export async function verifyAction(s: TestServer, as: Account, action: () => Promise<unknown>, opts: VerifyOptions = {}): Promise<QueuedEvent[]> {
  const params: Params = {
    apply_markdown: true,
    client_external_avatar: false,
    include_subscribers: true,
    client_capabilities: { notification_settings_null: true, bulk_message_deletion: true, user_settings_object: true, linkifier_url_template: true },
    ...opts.register,
  };
  const before = await s.ok('POST', '/api/v1/register', params, as);
  await action();
  const { events } = (await s.ok('GET', '/api/v1/events', { queue_id: before.queue_id, last_event_id: before.last_event_id, dont_block: true }, as)) as {
    events: QueuedEvent[];
  };
  for (const event of events) {
    const errors = checkEvent(event);
    assert.deepEqual(errors, [], `event does not match the reference schema:\n${errors.join('\n')}\n${JSON.stringify(event)}`);
  }
  const client = s.server.app.queues!.get(before.queue_id as string, as.id).data.client;
  const state = structuredClone(stable(before));
  applyEvents(state, events, client);
  const after = await s.ok('POST', '/api/v1/register', params, as);
  await s.ok('DELETE', '/api/v1/events', { queue_id: after.queue_id }, as);
  await s.ok('DELETE', '/api/v1/events', { queue_id: before.queue_id }, as);
  assert.deepEqual(state, stable(after), `state + events differs from a fresh state; events: ${JSON.stringify(events)}`);
  return events;
}

/** The `type` (and `op`) of each event, for asserting which events an action caused. */
export const kinds = (events: QueuedEvent[]): string[] => events.map((e) => (e.op ? `${e.type}:${String(e.op)}` : e.type));
