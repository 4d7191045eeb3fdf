// Reads that every send makes and that seldom change (a stream, the sender's subscription to it,
// its subscribers, the realm's linkifiers, who muted the sender), kept in memory between
// requests while Db.keptWrites stays the same: any write of this process or another to
// subscriptions, streams, users, realms, realm_linkifiers or muted_users drops them all. On
// SQLite each would be a kept statement's read (10-40 µs); on PostgreSQL, a round trip.
import { dbOf, type Conn, type Db, type Tx } from './database.ts';

/** Past this many, everything kept is dropped at once (a bound, not a cache policy). */
const MAX_KEPT = 10_000;

const keptByDb = new WeakMap<Db, { writes: number; values: Map<string, unknown> }>();

/**
 * What `read` answers for `key`, kept while Db.keptWrites stays the same (frozen: shared by every
 * caller). `db` is the Db, or a query builder of its (the app's or a transaction's). A value read
 * while a write raced it is answered but not kept. Nothing is kept while those writes might go
 * unseen (PostgreSQL without Redis, or while a transaction of this process that wrote them is
 * open: Db.keptWrites answers null).
 */
export async function keptRead<T>(db: Db | Conn | Tx, key: string, read: () => Promise<T>): Promise<T> {
  const owner = 'dialect' in db ? db : dbOf(db);
  const writes = owner?.keptWrites?.();
  if (owner == null || writes == null) return read();
  let kept = keptByDb.get(owner);
  if (!kept || kept.writes !== writes) keptByDb.set(owner, (kept = { writes, values: new Map() }));
  if (kept.values.has(key)) return kept.values.get(key) as T;
  const value = await read();
  if (typeof value === 'object' && value !== null) Object.freeze(value);
  if (owner.keptWrites!() === writes) {
    if (kept.values.size >= MAX_KEPT) kept.values.clear();
    kept.values.set(key, value);
  }
  return value;
}
