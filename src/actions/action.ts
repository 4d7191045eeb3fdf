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
    await app.db.writesHeld();
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

interface GroupedJob {
  fn: (scope: ActionScope) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  pending: { event: ParleyEvent; userIds: number[] }[];
  endedSessions: Set<number>;
  value: unknown;
}

const groups = new WeakMap<AppContext, GroupedJob[]>();
/** The flush of each app's latest group while it runs: the next group commits after it. */
const flushes = new WeakMap<AppContext, Promise<void>>();

/**
 * runAction for actions that come in bursts (sends), on SQLite: the actions called in one turn
 * of the event loop (or while writes are held for a checkpoint, Db.writesHeld) run one after the
 * other in one transaction, with one commit. On SQLite a commit writes every page it changed to
 * the log: a message's 50 recipients touch some 100 index pages, and messages committed together
 * to the same people share those pages (four at once write a third of the bytes and take a third
 * of the CPU). Each action keeps its guarantees: when one throws, the transaction is rolled
 * back, that one fails with its error and the others run again without it (an action changes
 * nothing but the database and its events, so running it again is safe); events are published
 * after the commit, in the order the actions ran; each caller's answer waits until the commit is
 * on disk. (A savepoint per action would keep the others' work instead, but SQLite then copies
 * every page an action touches to a statement journal: as much again as the log.) PostgreSQL,
 * whose connections run transactions side by side, runs each action on its own (runAction).
 *
 * A group commits once the flush of the group before it has ended. Committed during that flush,
 * it made the earlier group's callers wait for a second one: their answers wait (route.ts) for a
 * flush of every write made before them, and the later group's commit was one of those. At 1,000
 * sends a second that was a third of a send's time on the server (issue 19).
 */
export function runGroupedAction<T>(app: AppContext, fn: (scope: ActionScope) => Promise<T>): Promise<T> {
  if (app.db.dialect !== 'sqlite') return runAction(app, fn);
  return new Promise<T>((resolve, reject) => {
    const job: GroupedJob = { fn, resolve: resolve as (value: unknown) => void, reject, pending: [], endedSessions: new Set(), value: undefined };
    let jobs = groups.get(app);
    if (!jobs) {
      jobs = [];
      groups.set(app, jobs);
      // After this turn's I/O callbacks: the sends whose requests arrived in the same turn join.
      setImmediate(() => {
        // While the group before flushes, or a checkpoint copies the whole log (Db.writesHeld),
        // the group waits, and grows. It starts in a turn of its own: the callers of the group
        // before, answered when its flush ended, have asked for their flush (route.ts) by then.
        const start = (): void => {
          const wait = flushes.get(app) ?? app.db.writesHeld();
          if (wait) return void wait.then(later, later);
          const group = groups.get(app)!;
          groups.delete(app);
          void runGroup(app, group);
        };
        const later = (): void => void setImmediate(start);
        start();
      });
    }
    jobs.push(job);
  });
}

async function runGroup(app: AppContext, jobs: GroupedJob[]): Promise<void> {
  let failed: { index: number; error: unknown } | null = null;
  try {
    await app.db.kysely.transaction().execute(async (tx) => {
      for (const [index, job] of jobs.entries()) {
        job.pending = [];
        job.endedSessions = new Set();
        const scope: ActionScope = {
          tx,
          dialect: app.db.dialect,
          now: Math.floor(Date.now() / 1000),
          emit: (event, userIds) => job.pending.push({ event, userIds: [...userIds] }),
          sessionsEnded: (userId) => job.endedSessions.add(userId),
        };
        try {
          job.value = await job.fn(scope);
        } catch (error) {
          failed = { index, error };
          throw error;
        }
      }
    });
  } catch (error) {
    const f = failed as { index: number; error: unknown } | null;
    if (!f) {
      // The commit itself failed: nothing of the group was kept.
      for (const job of jobs) job.reject(error);
      return;
    }
    jobs[f.index]!.reject(f.error);
    const others = jobs.filter((_job, i) => i !== f.index);
    if (others.length > 0) await runGroup(app, others);
    return;
  }
  try {
    // Published at once, in commit order (see runAction).
    for (const job of jobs) {
      for (const { event, userIds } of job.pending) {
        if (userIds.length > 0) app.events.publish(event, userIds);
      }
      for (const userId of job.endedSessions) app.events.sessionsEnded(userId);
    }
    const flushed = app.db.sync();
    // Settles with the flush, never rejecting (the group's callers get its error).
    const ended = (): void => {
      if (flushes.get(app) === mark) flushes.delete(app);
    };
    const mark = flushed.then(ended, ended);
    flushes.set(app, mark);
    await flushed;
  } catch (error) {
    for (const job of jobs) job.reject(error);
    return;
  }
  for (const job of jobs) job.resolve(job.value);
}
