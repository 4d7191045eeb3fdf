// SQLite's write-ahead log flushed off the event loop, for Db.sync (database.ts).
import fs from 'node:fs';

/**
 * Flushes SQLite's write-ahead log to disk on libuv's worker threads. `written()` is called after
 * every statement that may write; `sync()` resolves once a flush that began after the latest
 * such statement has ended.
 */
export class WalSync {
  #writes = 0;
  #synced = 0;
  #flushing: Promise<void> | null = null;
  #handle: Promise<fs.promises.FileHandle> | null = null;
  readonly #path: string;
  readonly #flush: (handle: fs.promises.FileHandle) => Promise<void>;

  constructor(walPath: string, flush = (handle: fs.promises.FileHandle) => handle.datasync()) {
    this.#path = walPath;
    this.#flush = flush;
  }

  written(): void {
    this.#writes++;
  }

  async sync(): Promise<void> {
    // Up to the writes made so far: later ones are their writers' to wait for.
    const target = this.#writes;
    while (this.#synced < target) {
      if (!this.#flushing) {
        const upTo = this.#writes;
        this.#flushing = this.#flushOnce(upTo).finally(() => {
          this.#flushing = null;
        });
      }
      await this.#flushing;
    }
  }

  async #flushOnce(upTo: number): Promise<void> {
    // The log exists once anything was written, and stays while this connection is open.
    this.#handle ??= fs.promises.open(this.#path, 'r');
    try {
      await this.#flush(await this.#handle);
    } catch (err) {
      this.#handle = null;
      throw err;
    }
    this.#synced = Math.max(this.#synced, upTo);
  }

  async close(): Promise<void> {
    const handle = this.#handle;
    this.#handle = null;
    await (await handle?.catch(() => null))?.close();
  }
}
