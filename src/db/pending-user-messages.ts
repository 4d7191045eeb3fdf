// SQLite: the writes of a send that nobody reads at once are made after it, in batches (issue 19).
//
// A send to a stream writes one user_messages row per subscriber, and those rows land in two
// indexes ordered by user: a page of each index for every recipient (about 100 of 4 KB for 50
// subscribers), each written to the log at the commit. That commit was most of a send's time. So
// the send's transaction stores the rows in one `pending_user_messages` row (the message's ID and
// its recipients with their flags), which is on disk with the message before the send is
// answered; the rows move into user_messages a few milliseconds later, many messages at once, so
// a page of a recipient is written once for all of them. The full-text index takes new messages
// in the same batches (migration 0018): FTS5 writes a segment for every transaction that adds to
// it, and merges them later, which cost about a tenth of a send when each send added its own.
//
// Nobody reads what is deferred before it is written: every statement that names user_messages
// or the full-text index, on any connection of this code (StatementCache.prepare), first moves
// whatever is pending, in the same transaction when there is one. What a stop left pending is
// moved when the file is next opened. PostgreSQL writes user_messages in the send itself, and
// its search index is an index of the messages table.
//
// The timer's batches move on a worker thread, with a connection of its own (move-worker.ts): a
// tenth to a sixth of the main thread's time at high sending rates. SQLite has one writer at a
// time, so while the worker writes a part the app's connection writes nothing: actions wait for
// the part (Db.writesHeld), and any other statement that may write, or that names what is
// pending, waits for it on the spot (a few hundred microseconds to a few milliseconds), so that
// a transaction of the app never meets the worker's.
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

export const PENDING_TABLE = 'pending_user_messages';
/** How far the full-text index has come: one row, the highest message ID it is up to date for. */
export const SEARCH_INDEXED_TABLE = 'search_indexed';
/** SQLite's own tables of this deferral, which no other database has. */
export const DEFERRAL_TABLES: readonly string[] = [PENDING_TABLE, SEARCH_INDEXED_TABLE];

/**
 * Statements that read or write user_messages or the full-text index (the virtual table or its
 * shadow tables), and so need what is pending moved first.
 */
export const NAMES_DEFERRED = (text: string): boolean => /\b(user_messages|messages_fts\w*)\b/i.test(text);

/** Flags fit in the low 16 bits of a recipient's number (8 are in use). */
const FLAG_BITS = 16;

/** The recipients' user IDs and flags, as a JSON array of numbers (user ID * 65536 + flags). */
export function encodeRecipients(flagsByUser: ReadonlyMap<number, number>): string {
  const packed: number[] = [];
  for (const [userId, flags] of flagsByUser) packed.push(userId * 2 ** FLAG_BITS + flags);
  return JSON.stringify(packed);
}

const ALL = `select message_id, recipients from ${PENDING_TABLE} order by message_id`;
const EXISTS = 'select 1 from messages where id = ?';
// `or ignore`: a move of everything (`move`) writes again the rows that a part of the timer's
// batch already wrote; nothing can have changed those rows meanwhile, as any statement on
// user_messages first moves everything.
const INSERT = 'insert or ignore into user_messages (user_id, message_id, flags) values (?, ?, ?)';
const IS_PENDING = `select 1 from ${PENDING_TABLE} where message_id = ?`;
const CLEAR = `delete from ${PENDING_TABLE} where message_id <= ?`;
const ANY = `select exists (select 1 from ${PENDING_TABLE}) or coalesce((select max(id) from messages), 0) > (select up_to from ${SEARCH_INDEXED_TABLE})`;
const INDEXED = `select up_to from ${SEARCH_INDEXED_TABLE}`;
const NEWEST = 'select coalesce(max(id), 0) from messages';
const INDEX = 'insert into messages_fts (rowid, topic, content) select id, topic, content from messages where id > ? and id <= ? order by id';
const SET_INDEXED = `update ${SEARCH_INDEXED_TABLE} set up_to = ?`;

/**
 * After a send, the rows move within this time unless a read moves them sooner. Larger batches
 * cost less a message (measured on a 50-recipient stream: 4 a batch 690 µs of CPU a send, 20 a
 * batch 435, each alone 990): at 200 sends a second, 10 a batch.
 */
const MOVE_AFTER_MS = 50;
/** ... or as soon as this many messages are waiting (a busy server moves smaller batches). */
const MOVE_AT_MESSAGES = 32;
/** A batch on the timer takes the oldest messages up to the one that takes it past this many rows. */
const ROWS_A_BATCH = 5000;
/**
 * A batch on the timer writes this many rows a transaction, a turn of the event loop each, so
 * that requests go on between its parts: a batch of 10 messages to 50 recipients in one
 * transaction held the event loop 2-3 ms, and 10-15 ms at its slowest, which was most of a
 * send's p99 (issue 19). On the worker thread the parts keep the write lock as short, so that
 * sends waiting for it commit between them. The rows go in user order, so each part writes its
 * recipients' index pages once, as the whole batch did.
 */
const ROWS_A_PART = 200;

type Row = [userId: number, messageId: number, flags: number];

/** A batch that the timer moves a part at a time. */
interface Batch {
  /** Its oldest and newest messages: their pending rows are cleared when the last part is in. */
  first: number;
  last: number;
  /** Whether it took every pending message (then the search index is brought up to the newest). */
  all: boolean;
  rows: Row[];
  /** Rows written so far. */
  done: number;
}

/**
 * Moves pending rows into user_messages and indexes new messages for search, on one connection:
 * all of them (`moveAll`), or the next part of a batch (`movePart`). The app's connection has
 * one, and so has the worker's.
 */
export class RowMover {
  readonly #file: SQLite.Database;
  readonly #any: SQLite.Statement;
  readonly #all: SQLite.Statement;
  readonly #exists: SQLite.Statement;
  readonly #isPending: SQLite.Statement;
  readonly #insert: SQLite.Statement;
  readonly #clear: SQLite.Statement;
  readonly #indexed: SQLite.Statement;
  readonly #newest: SQLite.Statement;
  readonly #index: SQLite.Statement;
  readonly #setIndexed: SQLite.Statement;
  /** The batch being moved part by part. */
  #batch: Batch | null = null;

  /**
   * A move need not be on disk before anything is answered, so it does not ask for a flush of the
   * log (WalSync): the rows it wrote are still pending on disk until then, and the log is flushed
   * in order, so the next commit that is flushed carries the move with it.
   */
  constructor(file: SQLite.Database) {
    this.#file = file;
    this.#any = file.prepare(ANY).pluck();
    this.#all = file.prepare(ALL);
    this.#exists = file.prepare(EXISTS);
    this.#isPending = file.prepare(IS_PENDING).pluck();
    this.#insert = file.prepare(INSERT);
    this.#clear = file.prepare(CLEAR);
    this.#indexed = file.prepare(INDEXED).pluck();
    this.#newest = file.prepare(NEWEST).pluck();
    this.#index = file.prepare(INDEX);
    this.#setIndexed = file.prepare(SET_INDEXED);
  }

  /** Whether anything is pending: rows to move, or messages to index. */
  any(): boolean {
    return this.#any.get() === 1;
  }

  /**
   * Moves every pending row into user_messages, oldest message first, and indexes the messages
   * for search; inside the transaction that is open on the connection (the statement that asked
   * for them belongs to it, and a rollback leaves the rows pending), or in a transaction of its own.
   */
  moveAll(): void {
    // Whatever the batch has not written yet is written now; it starts afresh next time.
    this.#batch = null;
    this.#inTransaction(() => {
      const batch = this.#collect(Infinity);
      for (const [userId, messageId, flags] of batch.rows) this.#insert.run(userId, messageId, flags);
      this.#finish(batch);
    });
  }

  /**
   * One part of a batch, in a transaction of its own: the batch's next rows, or, once they are
   * all in, the clearing of its pending rows and its search indexing. True when there is more to
   * move. A failure rolls the part back; the batch is collected afresh next time.
   */
  movePart(): boolean {
    try {
      // A new batch is collected before the write lock is taken: reading, decoding and sorting
      // its rows took 5-10 ms, while every send waited for the lock (issue 19). Nothing that
      // happens between then and the part goes unseen: the check below finds a batch that another
      // connection moved meanwhile, and messages sent meanwhile are newer than the batch's.
      this.#batch ??= { ...this.#inReadTransaction(() => this.#collect(ROWS_A_BATCH)), done: 0 };
      return this.#inTransaction(() => {
        // Another connection may have moved the batch's messages since it was collected or since
        // the last part (the app's before a read, a CLI command's): their pending rows are gone,
        // and the batch is collected again.
        if (this.#batch && this.#isPending.get(this.#batch.first) === undefined) this.#batch = null;
        this.#batch ??= { ...this.#collect(ROWS_A_BATCH), done: 0 };
        const batch = this.#batch;
        if (batch.done < batch.rows.length) {
          const end = Math.min(batch.rows.length, batch.done + ROWS_A_PART);
          for (let i = batch.done; i < end; i++) this.#insert.run(...batch.rows[i]!);
          batch.done = end;
          return true;
        }
        this.#batch = null;
        this.#finish(batch);
        return !batch.all;
      });
    } catch (err) {
      this.#batch = null;
      throw err;
    }
  }

  /**
   * The rows of the pending messages, oldest first, up to the message that takes them past
   * `maxRows`, in user order: the inserts walk each index from one recipient's pages to the next
   * (a row a run of a kept statement: one statement over the JSON in SQL measured slower).
   */
  #collect(maxRows: number): Omit<Batch, 'done'> {
    const rows: Row[] = [];
    let first = 0;
    let last = 0;
    let all = true;
    for (const p of this.#all.all() as { message_id: number; recipients: string }[]) {
      if (rows.length >= maxRows) {
        all = false;
        break;
      }
      if (first === 0) first = p.message_id;
      last = p.message_id;
      // A deletion moves the rows first and deletes them; a message that is gone gets none.
      if (this.#exists.get(p.message_id) === undefined) continue;
      for (const n of JSON.parse(p.recipients) as number[]) rows.push([Math.floor(n / 2 ** FLAG_BITS), p.message_id, n % 2 ** FLAG_BITS]);
    }
    rows.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    return { first, last, all, rows };
  }

  /** Clears the pending rows of a batch whose rows are in, and indexes its messages for search. */
  #finish(batch: Omit<Batch, 'done'>): void {
    if (batch.last > 0) this.#clear.run(batch.last);
    // Each message as it is now: one edited or deleted before its turn is indexed as it is.
    const from = this.#indexed.get() as number;
    const upTo = batch.all ? (this.#newest.get() as number) : batch.last;
    if (upTo > from) {
      this.#index.run(from, upTo);
      this.#setIndexed.run(upTo);
    }
  }

  /** Runs `fn` in the transaction open on the connection, or in a read transaction of its own (one snapshot, no lock). */
  #inReadTransaction<T>(fn: () => T): T {
    if (this.#file.inTransaction) return fn();
    this.#file.exec('begin');
    try {
      return fn();
    } finally {
      if (this.#file.inTransaction) this.#file.exec('commit');
    }
  }

  /** Runs `fn` in the transaction open on the connection, or in one of its own. */
  #inTransaction<T>(fn: () => T): T {
    // The write lock first: no other connection adds pending rows between the read and the clear.
    const own = !this.#file.inTransaction;
    if (own) this.#file.exec('begin immediate');
    try {
      const result = fn();
      if (own) this.#file.exec('commit');
      return result;
    } catch (err) {
      if (own && this.#file.inTransaction) this.#file.exec('rollback');
      throw err;
    }
  }
}

/** The worker's answer to a part: whether there is more, or why it failed. */
export interface PartDone {
  more?: boolean;
  error?: string;
}

/** The worker stops after this long without a part to move (a thread and a connection: about 10 MB). */
const WORKER_IDLE_MS = 5_000;
/** How long a statement of the app waits for the worker's part at most (SQLite's busy timeout). */
const WAIT_FOR_PART_MS = 5_000;

/**
 * The app's side: moves everything before a statement that names user_messages or the index
 * (`beforeStatement`), and has the timer move batches after sends (`added`), on the worker
 * thread while it runs, on the app's connection otherwise.
 */
export class PendingUserMessages {
  readonly #file: SQLite.Database;
  readonly #mover: RowMover;
  readonly #writesHeld: () => Promise<void> | null;
  #timer: NodeJS.Timeout | null = null;
  /** Sends since the last move: a count for choosing when to move, not a record (rollbacks). */
  #added = 0;
  /** The worker (null while none runs) and whether it has opened its connection. */
  #worker: Worker | null = null;
  #workerReady = false;
  /** Set when the worker cannot be used: the timer's parts run on the app's connection. */
  #workerFailed = false;
  #idleTimer: NodeJS.Timeout | null = null;
  /** 1 while the worker writes a part, which it sets back to 0 (and notifies) when it has ended. */
  readonly #busy = new Int32Array(new SharedArrayBuffer(4));
  /** While the worker writes a part: resolves when it has ended. */
  #part: Promise<void> | null = null;
  #partEnded: () => void = () => undefined;
  #closed = false;
  /** Parts written by the worker and on the app's connection (for tests). */
  readonly stats = { workerParts: 0, ownParts: 0 };

  constructor(file: SQLite.Database, writesHeld: () => Promise<void> | null = () => null) {
    this.#file = file;
    this.#mover = new RowMover(file);
    this.#writesHeld = writesHeld;
  }

  /** A send stored its rows as pending: move them soon. */
  added(): void {
    this.#added++;
    if (this.#added >= MOVE_AT_MESSAGES) this.#schedule(0);
    else if (!this.#timer) this.#schedule(MOVE_AFTER_MS);
  }

  /** Moves what is pending before a statement that names user_messages or the index runs. */
  beforeStatement(): void {
    this.beforeWrite();
    if (this.#mover.any()) this.move();
  }

  /** Before a statement that may write (a `begin` too): the worker's part ends first. */
  beforeWrite(): void {
    if (this.#part) Atomics.wait(this.#busy, 0, 1, WAIT_FOR_PART_MS);
  }

  /** While the worker writes a part, a promise of its end (Db.writesHeld). */
  moving(): Promise<void> | null {
    return this.#part;
  }

  /** Moves everything pending now, on the app's connection (see RowMover.moveAll). */
  move(): void {
    this.#added = 0;
    this.#mover.moveAll();
  }

  #schedule(ms: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      // While the worker writes a part, the end of the part arms the timer again.
      if (!this.#file.open || this.#closed || this.#part) return;
      // A transaction of the query builder is waiting on something: move once it is over.
      if (this.#file.inTransaction) return this.#schedule(1);
      // Writers hold back for a checkpoint (Db.writesHeld): move after it.
      const held = this.#writesHeld();
      if (held) return void held.then(() => this.#schedule(0));
      if (!this.#mover.any()) return;
      this.#added = 0;
      const worker = this.#workerFailed ? null : this.#startWorker();
      if (worker && this.#workerReady) return this.#partOnWorker(worker);
      // Until the worker has started (or if it cannot), the part is written here.
      try {
        this.stats.ownParts++;
        this.#afterPart(this.#mover.movePart());
      } catch (err) {
        // The rows stay pending (their transaction was rolled back); the next read tries again.
        process.emitWarning(`Moving pending user_messages rows failed: ${(err as Error).message}`);
      }
    }, ms);
    this.#timer.unref();
  }

  /**
   * After a part: the batch's next part at once; once the batch is in, the next batch if sends
   * came in meanwhile (the timer they armed found a part under way, or a batch collected before
   * them). False when nothing is left.
   */
  #afterPart(more: boolean): boolean {
    if (more) this.#schedule(0);
    else if (this.#mover.any()) this.#schedule(this.#added >= MOVE_AT_MESSAGES ? 0 : MOVE_AFTER_MS);
    else return false;
    return true;
  }

  #partOnWorker(worker: Worker): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = null;
    Atomics.store(this.#busy, 0, 1);
    this.stats.workerParts++;
    this.#part = new Promise((resolve) => (this.#partEnded = resolve));
    // A part under way keeps the process alive: whoever waits for it is answered.
    worker.ref();
    worker.postMessage('part');
  }

  /** The worker's part has ended (or the worker has): writes go on. */
  #endPart(): void {
    this.#worker?.unref();
    Atomics.store(this.#busy, 0, 0);
    const ended = this.#partEnded;
    this.#part = null;
    this.#partEnded = () => undefined;
    ended();
  }

  #startWorker(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(workerEntry(), {
      eval: COMPILED ? undefined : true,
      workerData: { file: this.#file.name, busy: this.#busy },
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
    });
    worker.unref();
    this.#worker = worker;
    this.#workerReady = false;
    worker.on('message', (m: PartDone | 'ready') => {
      if (this.#worker !== worker) return;
      if (m === 'ready') {
        this.#workerReady = true;
        return;
      }
      this.#endPart();
      if (m.error !== undefined) {
        // The part was rolled back: its rows stay pending, for the next read or part.
        process.emitWarning(`Moving pending user_messages rows failed: ${m.error}`);
      } else if (this.#afterPart(m.more!)) {
        return;
      }
      this.#idleTimer = setTimeout(() => this.#stopWorker(), WORKER_IDLE_MS);
      this.#idleTimer.unref();
    });
    const failed = (why: string) => {
      if (this.#worker !== worker) return;
      this.#worker = null;
      if (this.#part) this.#endPart();
      if (this.#closed) return;
      // From now on the timer's parts are written on the app's connection.
      this.#workerFailed = true;
      process.emitWarning(`The worker that moves pending user_messages rows stopped (${why}); they move on the main thread`);
      this.#schedule(0);
    };
    worker.on('error', (err) => failed(err.message));
    worker.on('exit', (code) => failed(`exit code ${code}`));
    return worker;
  }

  /** Stops an idle worker (a new one starts with the next part). */
  #stopWorker(): void {
    this.#idleTimer = null;
    const worker = this.#worker;
    if (!worker || this.#part) return;
    this.#worker = null;
    worker.postMessage('close');
  }

  /**
   * Stops the timer and the worker, once its part (if any) has ended; what is pending stays on
   * disk (Db.close moves it first) and moves on the next open.
   */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#timer = this.#idleTimer = null;
    await this.#part;
    const worker = this.#worker;
    this.#worker = null;
    if (!worker) return;
    // It closes its connection and ends (and the process waits for it).
    worker.ref();
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('close');
    await exited;
  }
}

/** Whether this is the compiled JavaScript (dist/) rather than the TypeScript run through tsx. */
const COMPILED = import.meta.url.endsWith('.js');

/**
 * The worker's module, beside this one. Under tsx, a worker's own module is not transpiled (Node
 * 20 runs no `--import` hook before a worker's entry), so the worker registers tsx first.
 */
function workerEntry(): URL | string {
  if (COMPILED) return new URL('./move-worker.js', import.meta.url);
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./move-worker.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
}
