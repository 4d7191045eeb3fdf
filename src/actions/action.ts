// Every mutation runs through runAction: one transaction, and its events sent after commit.
import type { AppContext } from '../context.ts';
import type { Dialect, Tx } from '../db/database.ts';
import type { ParleyEvent } from '../events/types.ts';

export interface ActionScope {
  tx: Tx;
  /** Which database: row locks (SELECT ... FOR UPDATE) are taken on PostgreSQL only. */
  dialect: Dialect;
  /** UTC seconds, fixed for the whole action. */
  now: number;
  /** Queues an event for these users; it is published only if the transaction commits. */
  emit(event: ParleyEvent, userIds: Iterable<number>): void;
}

export async function runAction<T>(app: AppContext, fn: (scope: ActionScope) => Promise<T>): Promise<T> {
  const pending: { event: ParleyEvent; userIds: number[] }[] = [];
  const now = Math.floor(Date.now() / 1000);
  const result = await app.db.kysely.transaction().execute((tx) =>
    fn({ tx, dialect: app.db.dialect, now, emit: (event, userIds) => pending.push({ event, userIds: [...userIds] }) }),
  );
  for (const { event, userIds } of pending) {
    if (userIds.length > 0) app.events.publish(event, userIds);
  }
  return result;
}
