// What authentication keeps (users by API key, realms, sessions: src/http/auth.ts) and what
// sends keep (src/db/kept.ts) stays current across processes on PostgreSQL through Redis. A
// process that commits a write to users, realms, sessions, subscriptions, streams, linkifiers or
// muted users publishes it on a channel every process listens to; each one drops what it kept,
// then acknowledges to the writer, and the writer waits for every acknowledgement before its
// commit returns. So when a request that deactivated a user, changed a key or ended a
// session is answered, no process still authenticates with what it had kept.
//
// A process keeps nothing while it is not listening (before it has subscribed, and from a lost
// connection until it has subscribed again, when it drops everything), since it would miss
// invalidations meanwhile. Backstops, for what the protocol cannot see (a writer that lost Redis
// between its commit and its publish, a process that stalls past the wait): a writer that gets
// no complete acknowledgement says so, and every process drops everything each `MAX_AGE_MS`.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type ioredisTypes from 'ioredis';
import { lazy } from '../lazy.ts';

const ioredis = lazy<typeof ioredisTypes>('ioredis');

/** How long a writer waits for every process's acknowledgement before it goes on. */
const ACK_TIMEOUT_MS = 2000;
/** The backstop: nothing is kept longer than this. */
const MAX_AGE_MS = 30_000;

export class IdentitySync {
  /** Grows with every invalidation; what was read under an older value is not kept. */
  #version = 0;
  /** Transactions of this process that have written what is kept and not yet ended. */
  #writingTransactions = 0;
  #listening = false;
  #closed = false;
  readonly #id = randomUUID();
  readonly #channel: string;
  readonly #acks: string;
  readonly #sub: Redis;
  readonly #pub: Redis;
  #seq = 0;
  readonly #waiting = new Map<number, { left: number; done: () => void }>();
  #subscribed: Promise<void> | null = null;
  readonly #backstop: NodeJS.Timeout;

  constructor(url: string, prefix: string) {
    this.#channel = `${prefix}:identity`;
    this.#acks = `${prefix}:identity-ack:${this.#id}`;
    const { Redis } = ioredis();
    // Subscriptions are made again by hand on every (re)connection, so that "listening" is only
    // set once they are in place.
    this.#sub = new Redis(url, { lazyConnect: true, autoResubscribe: false, maxRetriesPerRequest: null });
    this.#pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    this.#sub.on('ready', () => {
      this.#subscribed = this.#subscribe();
    });
    for (const lost of ['close', 'end', 'reconnecting', 'error'] as const) this.#sub.on(lost, () => this.#deaf());
    this.#pub.on('error', () => undefined); // a failed publish says so (changed)
    this.#sub.on('message', (channel: string, message: string) => this.#message(channel, message));
    this.#backstop = setInterval(() => this.#version++, MAX_AGE_MS).unref();
  }

  async start(): Promise<void> {
    await Promise.all([this.#sub.connect(), this.#pub.connect()]);
    await this.#subscribed;
  }

  /**
   * The current version, or null while invalidations might be missed or a transaction of this
   * process has written what is kept and not ended (keep nothing then).
   */
  version(): number | null {
    return this.#listening && this.#writingTransactions === 0 ? this.#version : null;
  }

  /** A transaction of this process has written what is kept: nothing is kept until it ends. */
  transactionWrites(): void {
    this.#writingTransactions++;
    this.#version++;
  }

  /**
   * That transaction has ended: committed, every process drops what it kept (changed);
   * rolled back, this one does (its reads saw what was undone).
   */
  async transactionEnded(committed: boolean): Promise<void> {
    this.#writingTransactions--;
    if (committed) return this.changed();
    this.#version++;
  }

  /**
   * After a commit that wrote what is kept (Db.identityWrites, Db.keptWrites): every
   * process drops what it kept.
   */
  async changed(): Promise<void> {
    this.#version++;
    const seq = ++this.#seq;
    let receivers: number;
    try {
      receivers = await this.#pub.publish(this.#channel, `${this.#id} ${seq}`);
    } catch (err) {
      process.emitWarning(`Could not publish an identity change to Redis: ${(err as Error).message}`);
      return;
    }
    if (receivers === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(seq);
        process.emitWarning(`Not every process acknowledged an identity change within ${ACK_TIMEOUT_MS} ms`);
        resolve();
      }, ACK_TIMEOUT_MS);
      this.#waiting.set(seq, {
        left: receivers,
        done: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  async #subscribe(): Promise<void> {
    try {
      await this.#sub.subscribe(this.#channel, this.#acks);
    } catch {
      return; // the connection went again: the next 'ready' subscribes
    }
    // Whatever was kept before may have missed invalidations.
    this.#version++;
    this.#listening = true;
  }

  #deaf(): void {
    this.#listening = false;
    this.#version++;
  }

  #message(channel: string, message: string): void {
    if (channel === this.#channel) {
      this.#version++;
      const space = message.indexOf(' ');
      const from = message.slice(0, space);
      const seq = message.slice(space + 1);
      if (from === this.#id) this.#acknowledged(seq);
      else if (!this.#closed) {
        this.#pub.publish(`${this.#channel}-ack:${from}`, seq).catch(() => undefined);
      }
    } else if (channel === this.#acks) {
      this.#acknowledged(message);
    }
  }

  #acknowledged(seq: string): void {
    const n = Number(seq);
    const w = this.#waiting.get(n);
    if (!w) return;
    if (--w.left > 0) return;
    this.#waiting.delete(n);
    w.done();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listening = false;
    clearInterval(this.#backstop);
    for (const w of this.#waiting.values()) w.done();
    this.#waiting.clear();
    this.#sub.disconnect();
    await this.#pub.quit().catch(() => undefined);
  }
}
