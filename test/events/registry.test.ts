// The registry of event types (src/events/registry.ts): one module per type, its snapshot groups
// with their apply, and sending typed against it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ActionScope } from '../../src/actions/action.ts';
import { EVENT_TYPES, eventTypeOf } from '../../src/events/registry.ts';

/** Never called: `npm run typecheck` fails if a wrong payload compiles. */
function wrongPayloadsDoNotCompile(scope: ActionScope): void {
  // @ts-expect-error: a removed draft is named by `draft_id`
  scope.emit({ type: 'drafts', op: 'remove', draft: 1 }, []);
  // @ts-expect-error: no such event type
  scope.emit({ type: 'no_such_type' }, []);
  // @ts-expect-error: muted_users carries the whole list
  scope.emit({ type: 'muted_users', op: 'add', user_id: 2 }, []);
  scope.emit({ type: 'muted_users', muted_users: [{ id: 2, timestamp: 0 }] }, []);
}
void wrongPayloadsDoNotCompile;

test('each event type is listed once, and found by its name', () => {
  const names = EVENT_TYPES.map((t) => t.type);
  assert.equal(new Set(names).size, names.length);
  for (const t of EVENT_TYPES) assert.equal(eventTypeOf(t.type), t);
  assert.equal(eventTypeOf('heartbeat'), undefined);
  assert.equal(eventTypeOf('toString'), undefined);
});

test('every event type with a snapshot group applies its events', () => {
  const without = EVENT_TYPES.filter((t) => t.snapshot && typeof t.apply !== 'function').map((t) => t.type);
  assert.deepEqual(without, []);
});
