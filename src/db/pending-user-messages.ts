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
 * send's p99 (issue 19). The rows go in user order, so each part writes its recipients' index
 * pages once, as the whole batch did.
 */
const ROWS_A_PART = 200;

type Row = [userId: number, messageId: number, flags: number];

/** A batch that the timer moves a part a turn. */
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
 * Moves pending rows into user_messages and indexes new messages for search: all of them when a
 * statement that names either is about to run (`beforeStatement`), and in batches on a timer
 * after sends (`added`).
 */
export class PendingUserMessages {
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
  readonly #writesHeld: () => Promise<void> | null;
  #timer: NodeJS.Timeout | null = null;
  /** Sends since the last move: a count for choosing when to move, not a record (rollbacks). */
  #added = 0;
  /** The batch the timer is moving, part by part. */
  #batch: Batch | null = null;

  /**
   * A move need not be on disk before anything is answered, so it does not ask for a flush of the
   * log (WalSync): the rows it wrote are still pending on disk until then, and the log is flushed
   * in order, so the next commit that is flushed carries the move with it.
   */
  constructor(file: SQLite.Database, writesHeld: () => Promise<void> | null = () => null) {
    this.#file = file;
    this.#writesHeld = writesHeld;
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

  /** A send stored its rows as pending: move them soon. */
  added(): void {
    this.#added++;
    if (this.#added >= MOVE_AT_MESSAGES) this.#schedule(0);
    else if (!this.#timer) this.#schedule(MOVE_AFTER_MS);
  }

  /** Moves what is pending before a statement that names user_messages or the index runs. */
  beforeStatement(): void {
    if (this.#any.get() === 1) this.move();
  }

  /**
   * Moves every pending row into user_messages, oldest message first, and indexes the messages
   * for search; inside the transaction that is open on the connection (the statement that asked
   * for them belongs to it, and a rollback leaves the rows pending), or in a transaction of its own.
   */
  move(): void {
    this.#added = 0;
    // Whatever the timer's batch has not written yet is written now; it starts afresh next time.
    this.#batch = null;
    this.#inTransaction(() => {
      const batch = this.#collect(Infinity);
      for (const [userId, messageId, flags] of batch.rows) this.#insert.run(userId, messageId, flags);
      this.#finish(batch);
    });
  }

  /**
   * One part of the timer's batch, in a transaction of its own: the batch's next rows, or, once
   * they are all in, the clearing of its pending rows and its search indexing. True when there
   * is more to move.
   */
  #movePart(): boolean {
    return this.#inTransaction(() => {
      // Another connection may have moved the batch's messages since the last part (a CLI
      // command): their pending rows are gone, and the batch is collected again.
      if (this.#batch && this.#isPending.get(this.#batch.first) === undefined) this.#batch = null;
      if (!this.#batch) {
        this.#added = 0;
        this.#batch = { ...this.#collect(ROWS_A_BATCH), done: 0 };
      }
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

  #schedule(ms: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (!this.#file.open) return;
      // A transaction of the query builder is waiting on something: move once it is over.
      if (this.#file.inTransaction) return this.#schedule(1);
      // Writers hold back for a checkpoint (Db.writesHeld): move after it.
      const held = this.#writesHeld();
      if (held) return void held.then(() => this.#schedule(0));
      try {
        if (this.#any.get() === 1 && this.#movePart()) this.#schedule(0);
      } catch (err) {
        // The rows stay pending (their transaction was rolled back); the next read tries again.
        this.#batch = null;
        process.emitWarning(`Moving pending user_messages rows failed: ${(err as Error).message}`);
      }
    }, ms);
    this.#timer.unref();
  }

  /** Stops the timer; what is pending stays on disk and moves on the next open. */
  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
