// Helpers shared by the tests of drafts, scheduled messages, uploads and muted users.
import type { TestServer } from './server.ts';
import type { SnapshotContext } from '../../src/events/event-type.ts';

export async function streamIdOf(s: TestServer, name: string): Promise<number> {
  const row = await s.server.app.db.kysely.selectFrom('streams').select('id').where('name', '=', name).executeTakeFirstOrThrow();
  return row.id;
}

/** A register snapshot context for a user, to call a SnapshotGroup directly. */
export async function snapshotContext(s: TestServer, userId: number): Promise<SnapshotContext> {
  const db = s.server.app.db.kysely;
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const realm = await db.selectFrom('realms').selectAll().where('id', '=', user.realm_id).executeTakeFirstOrThrow();
  return { app: s.server.app, realm, user, clientCapabilities: {}, applyMarkdown: true, clientExternalAvatar: false, includeSubscribers: false, slimPresence: false };
}

/** Polls until `check` returns a value (not undefined), for at most `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 15000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
