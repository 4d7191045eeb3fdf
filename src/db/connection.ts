// How the app opens a connection to its SQLite file: the app's own (database.ts) and the worker
// that moves pending rows (move-worker.ts) alike.
import type SQLite from 'better-sqlite3';

export function configureConnection(file: SQLite.Database): void {
  file.pragma('journal_mode = WAL');
  // NORMAL: a commit does not wait for the disk, which would stop the whole process while it
  // waits (a flush takes 0.5 ms here, sometimes hundreds). Db.sync() flushes the log on a
  // worker thread, and requests wait for it before they are answered: what we acknowledge is
  // on disk. Checkpoints still flush the log before they copy it into the database.
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  // Checkpoints run on a worker thread (checkpoint.ts), not inside this connection's commits; a
  // log that grew long while they fell behind is cut back when it starts over.
  file.pragma('wal_autocheckpoint = 0');
  file.pragma('journal_size_limit = 67108864');
  // A 4 MB page cache: better-sqlite3's default of 16 MB is filled by a register on a large
  // organization, and the allocator keeps it when SQLite lets go (10 MB more at idle). Pages
  // missing from it come from the OS's file cache. On the standard organization (issue 19),
  // fetches and searches cost the same CPU with 4 MB as with 16; with SQLite's own 2 MB,
  // searches cost 5% more.
  file.pragma('cache_size = -4000');
  registerSqliteFunctions(file);
}

/**
 * SQLite's built-in lower() folds only ASCII letters, while PostgreSQL's and JavaScript's fold all
 * of Unicode: names and topics compare case-insensitively through lower(), so 'Ärger' must fold
 * the same way on both databases (and match the toLowerCase() of the values we compare with).
 * Every connection to a Parley SQLite file registers this before using it.
 */
export function registerSqliteFunctions(file: SQLite.Database): void {
  file.function('lower', { deterministic: true }, (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v));
}
