// The fuzz test's raw HTTP client (any bytes, any headers, a deadline) and its database digest.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { DEFERRAL_TABLES } from '../../src/db/pending-user-messages.ts';

export interface RawResponse {
  status: number;
  text: string;
}

/** A request must be answered within this; longer is a hang (the slowest routes take well under). */
export const REQUEST_TIMEOUT_MS = 10_000;

// One kept-alive connection: connecting anew for each of thousands of requests costs as much as them.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export function rawRequest(baseUrl: string, method: string, url: string, headers: Record<string, string>, body?: Buffer | string): Promise<RawResponse> {
  const base = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const h: Record<string, string> = { host: `localhost:${base.port}`, ...headers };
    if (body !== undefined) {
      h['content-length'] = String(Buffer.byteLength(body));
      h['content-type'] ??= 'application/x-www-form-urlencoded';
    }
    const req = http.request({ host: base.hostname, port: base.port, path: url, method, headers: h, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms: ${method} ${url.slice(0, 120)}`)));
    // The server may answer (413, 400) and close before it has read a large body: that answer counts.
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
      else setTimeout(() => reject(new Error(`connection closed without an answer: ${method} ${url.slice(0, 120)}`)), 2000).unref();
    });
    if (body !== undefined) req.write(body);
    req.end();
  });
}

let tableNames: string[] | null = null;

/**
 * A hash of every row of every table (rows sorted, so the order a query returns them in is moot).
 * PostgreSQL builds it in one statement: a round trip per table would be most of the test's time.
 */
export async function databaseDigest(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<string> {
  // SQLite's pending user_messages rows move into user_messages when that table is read (and on a
  // timer): the digest reads them there, whenever they move. The full-text index takes new
  // messages in those same moves, so its shadow tables' bytes depend on when they ran: the digest
  // leaves it out with the deferral's own tables (it reads the messages themselves).
  tableNames ??= (await db.introspection.getTables())
    .map((t) => t.name)
    .filter((n) => !n.startsWith('kysely_') && !DEFERRAL_TABLES.includes(n) && !/^messages_fts/.test(n))
    .sort();
  if (dialect === 'postgres') {
    const lines = tableNames.map((name) => `select '${name}:' || t::text as line from "${name}" t`).join(' union all ');
    const r = await sql<{ d: string | null }>`select md5(string_agg(line, E'\n' order by line)) as d from (${sql.raw(lines)}) x`.execute(db);
    return r.rows[0]?.d ?? '';
  }
  const hash = createHash('sha256');
  for (const name of tableNames) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    const lines = rows.rows.map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).sort();
    hash.update(`${name}\n${lines.join('\n')}\n`);
  }
  return hash.digest('hex');
}
