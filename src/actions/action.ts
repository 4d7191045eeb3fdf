// Every mutation runs through runAction: one transaction, and its events sent after commit.
import type { AppContext } from '../context.ts';
import type { Dialect, Tx } from '../db/database.ts';
import type { ParleyEvent } from '../events/registry.ts';

export interface ActionScope {
  tx: Tx;
  /** Which database: row locks (SELECT ... FOR UPDATE) are taken on PostgreSQL only. */
  dialect: Dialect;
  /** UTC seconds, fixed for the whole action. */
  now: number;
  /** Queues an event for these users; it is published only if the transaction commits. */
  emit(event: ParleyEvent, userIds: Iterable<number>): void;
  /** Says the user's browser sessions were deleted: after commit, their open long-polls end (EventHub.sessionsEnded). */
  sessionsEnded(userId: number): void;
}

/**
 * PostgreSQL errors that mean a concurrent transaction got there first: a unique row another
 * request inserted between our check and our insert, or a deadlock. Running the action again
 * sees what that request committed, and answers as it would have answered after it.
 */
const RETRYABLE = new Set(['23505', '40001', '40P01']);
const ATTEMPTS = 3;

export async function runAction<T>(app: AppContext, fn: (scope: ActionScope) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const pending: { event: ParleyEvent; userIds: number[] }[] = [];
    const endedSessions = new Set<number>();
    const now = Math.floor(Date.now() / 1000);
    let result: T;
    try {
      result = await app.db.kysely.transaction().execute((tx) =>
        fn({ tx, dialect: app.db.dialect, now, emit: (event, userIds) => pending.push({ event, userIds: [...userIds] }), sessionsEnded: (userId) => endedSessions.add(userId) }),
      );
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (app.db.dialect === 'postgres' && attempt < ATTEMPTS && typeof code === 'string' && RETRYABLE.has(code)) continue;
      throw err;
    }
    // Published at once, in commit order, so that a register racing this action sees each
    // change either in its snapshot or as an event; no client is answered (route.ts) until
    // the change is on disk.
    for (const { event, userIds } of pending) {
      if (userIds.length > 0) app.events.publish(event, userIds);
    }
    for (const userId of endedSessions) app.events.sessionsEnded(userId);
    await app.db.sync();
    return result;
  }
}
