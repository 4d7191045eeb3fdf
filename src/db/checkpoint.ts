// WAL checkpoints off the event loop (issue 19). SQLite's automatic checkpoint runs inside the
// commit that crosses its threshold, on the connection that commits: about one send in eight
// stopped the whole process for the copy into the database file and its two flushes (5-50 ms
// here). The main connection turns it off (wal_autocheckpoint = 0) and a worker thread, with a
// connection of its own, runs passive checkpoints instead: they never block the writer, and the
// writer starts the log over once a checkpoint has copied all of it.
//
// Under a steady stream of commits a passive checkpoint never copies all of it: commits land
// while it copies. The log then grew without end (600 MB after a minute at 1,000 sends a second),
// and every commit wrote past the end of the file, where the kernel allocates and zeroes blocks:
// a sixth of the main thread's time. So once the log is long and the checkpoints have nearly
// caught up, the writers hold back for one more (`held()`: actions wait for it before their
// transactions begin; a few milliseconds, once per `restartFrames`), which copies the rest; the
// next commit starts the log over, and it is written over the same blocks from then on.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);

// The worker's whole program: plain CommonJS, so that it runs the same under tsx and compiled.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
parentPort.on('message', (m) => {
  if (m === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const r = db.pragma('wal_checkpoint(PASSIVE)')[0];
    parentPort.postMessage({ log: r.log, checkpointed: r.checkpointed });
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message || err) });
  }
});
`;

export interface CheckpointerOptions {
  /** The database file. */
  file: string;
  /** At least this long between the starts of two checkpoints while commits go on. */
  intervalMs?: number;
  /** The worker stops after this long without commits (it costs about 10 MB while it runs). */
  idleMs?: number;
  /** Called when the worker fails: the caller turns SQLite's own checkpoints back on. */
  onFailure: (err: Error) => void;
  /** Whether the writer's connection is inside a transaction now (a hold waits for its end). */
  inTransaction?: () => boolean;
  /**
   * A log this long (frames of a page) is copied whole behind a hold, so that it starts over,
   * once a checkpoint takes at most a quarter of `maxHoldMs` (checkpoints run back to back until).
   */
  restartFrames?: number;
  /** A hold ends after this long even if its checkpoint has not (a slow disk): writes go on. */
  maxHoldMs?: number;
}

/**
 * Runs passive checkpoints on a worker thread while commits go on: `committed()` after commits
 * (cheap; at most one checkpoint runs at a time, one per interval). The worker starts on the
 * first commit and stops after a quiet spell.
 */
export class Checkpointer {
  readonly #opts: Required<CheckpointerOptions>;
  #worker: Worker | null = null;
  /** Resolves when the latest worker has exited (closed its connection). */
  #exited: Promise<void> = Promise.resolve();
  /** The worker running a checkpoint now, if any. */
  #runningOn: Worker | null = null;
  #pending = false;
  #lastStart = 0;
  #timer: NodeJS.Timeout | null = null;
  #idleTimer: NodeJS.Timeout | null = null;
  #failed = false;
  #closed = false;
  /** Resolves when the running checkpoint ends (for close and tests). */
  #done: Promise<void> = Promise.resolve();
  #finish: () => void = () => undefined;
  /** While writers hold back for a checkpoint that copies the whole log: resolves at its end. */
  #hold: { promise: Promise<void>; release: () => void } | null = null;
  /** Checkpoints run so far, the log's size in frames after the latest, and the holds. */
  stats = { checkpoints: 0, lastLogFrames: 0, holds: 0 };

  constructor(opts: CheckpointerOptions) {
    this.#opts = { intervalMs: 200, idleMs: 5_000, inTransaction: () => false, restartFrames: 16_384, maxHoldMs: 200, ...opts };
  }

  /**
   * While a checkpoint that is to copy the whole log runs, a promise of its end: a transaction
   * that commits before then keeps the log from starting over. Null otherwise.
   */
  held(): Promise<void> | null {
    return this.#hold?.promise ?? null;
  }

  committed(): void {
    if (this.#failed || this.#closed) return;
    this.#pending = true;
    this.#schedule();
  }

  #schedule(): void {
    if (this.#runningOn || this.#timer || !this.#pending) return;
    const wait = this.#lastStart + this.#opts.intervalMs - Date.now();
    if (wait > 0) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.#schedule();
      }, wait);
      this.#timer.unref();
      return;
    }
    this.#run();
  }

  #run(): void {
    this.#pending = false;
    this.#lastStart = Date.now();
    this.#done = new Promise((resolve) => (this.#finish = resolve));
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    const worker = (this.#worker ??= this.#start());
    this.#runningOn = worker;
    worker.postMessage('checkpoint');
  }

  #start(): Worker {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver: require.resolve('better-sqlite3'), file: this.#opts.file },
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 },
    });
    worker.unref();
    this.#exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (m: { log?: number; checkpointed?: number; error?: string }) => {
      if (this.#runningOn !== worker) return;
      this.#runningOn = null;
      this.#finish();
      if (m.error !== undefined) return this.#fail(new Error(`WAL checkpoint failed: ${m.error}`));
      this.stats.checkpoints++;
      this.stats.lastLogFrames = m.log ?? 0;
      // A checkpoint copies the log as it was when it began; commits made meanwhile are left.
      const took = Date.now() - this.#lastStart;
      if (this.#hold) this.#release();
      else if ((m.log ?? 0) >= this.#opts.restartFrames && !this.#closed) {
        // Copy the rest behind a hold when checkpoints keep up (what is left is what came in
        // while this one ran); until then, checkpoint back to back.
        if (took <= this.#opts.maxHoldMs / 4) return this.#holdWrites();
        this.#lastStart = 0;
        this.#pending = true;
      }
      if (this.#closed) return;
      this.#schedule();
      if (!this.#runningOn && !this.#timer) {
        this.#idleTimer = setTimeout(() => this.#stopWorker(), this.#opts.idleMs);
        this.#idleTimer.unref();
      }
    });
    // A worker stopped for idleness may exit after the next one has started: only the current
    // one's end, or the end of the one running a checkpoint, matters.
    worker.on('error', (err) => {
      if (this.#worker === worker || this.#runningOn === worker) this.#fail(err);
    });
    worker.on('exit', () => {
      if (this.#worker === worker) this.#worker = null;
      if (this.#runningOn !== worker) return;
      this.#runningOn = null;
      this.#finish();
      if (!this.#closed) this.#fail(new Error('WAL checkpoint worker exited'));
    });
    return worker;
  }

  /** Holds writers back, waits for the transaction under way to end, then copies the whole log. */
  #holdWrites(): void {
    let release!: () => void;
    const promise = new Promise<void>((resolve) => (release = resolve));
    const timer = setTimeout(() => this.#release(), this.#opts.maxHoldMs);
    timer.unref();
    this.#hold = {
      promise,
      release: () => {
        clearTimeout(timer);
        release();
      },
    };
    this.stats.holds++;
    const start = () => {
      if (!this.#hold || this.#closed) return;
      if (this.#opts.inTransaction()) return void setImmediate(start);
      this.#run();
    };
    start();
  }

  #release(): void {
    const hold = this.#hold;
    this.#hold = null;
    hold?.release();
  }

  #stopWorker(): void {
    this.#idleTimer = null;
    const worker = this.#worker;
    if (!worker || this.#runningOn) return;
    this.#worker = null;
    worker.ref();
    worker.postMessage('close');
  }

  #fail(err: Error): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#release();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    void this.#worker?.terminate();
    this.#worker = null;
    this.#opts.onFailure(err);
  }

  /** Waits for a running checkpoint, then closes the worker's connection. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#release();
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#timer = this.#idleTimer = null;
    // The worker does not keep the process alive, except while close waits for it.
    const worker = this.#worker;
    this.#worker = null;
    worker?.ref();
    await this.#done;
    worker?.postMessage('close');
    await this.#exited;
  }
}
