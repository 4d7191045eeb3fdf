// Every event type has a state-plus-events test: a `verifyAction` (test/helpers/verify.ts) whose
// events the test names through `kinds(...)`, so the type's apply is checked against a fresh
// register and its events against the reference's schema. A new event type without one fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { EVENT_TYPES } from '../../src/events/registry.ts';

const TEST_ROOT = path.resolve(import.meta.dirname, '..');

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? testFiles(p) : e.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** The event types named in the `kinds(...)` assertions of the files that run verifyAction. */
function typesVerified(): Set<string> {
  const named = new Set<string>();
  for (const file of testFiles(TEST_ROOT)) {
    const source = fs.readFileSync(file, 'utf8');
    if (!/\bverifyAction\(/.test(source)) continue;
    for (const m of source.matchAll(/kinds\([^;]*/g)) {
      for (const literal of m[0].matchAll(/'([a-z_]+)(?::[a-z_]+)?'/g)) named.add(literal[1]!);
    }
  }
  return named;
}

test('every event type of the registry has a state-plus-events (verifyAction) test', () => {
  const verified = typesVerified();
  const missing = EVENT_TYPES.map((t) => t.type).filter((type) => !verified.has(type));
  assert.deepEqual(missing, [], `event types without a verifyAction test naming them in kinds(...): ${missing.join(', ')}`);
});

test('the check finds the types of the existing state-plus-events tests', () => {
  const verified = typesVerified();
  for (const type of ['message', 'subscription', 'realm_user', 'user_settings', 'update_display_settings']) assert.ok(verified.has(type), type);
  assert.equal(verified.has('no_such_event_type'), false);
});
