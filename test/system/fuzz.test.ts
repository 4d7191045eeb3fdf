// Every route of the route table, with malformed values for each declared parameter and malformed
// bodies and URLs: never a 5xx, never a hang, every 4xx in the API's {result, msg, code} shape,
// refused requests leave the database as it was, and the server still answers afterwards.
// Values come from a fixed catalogue plus fast-check samples (seeded, so a failure reproduces):
// FUZZ_RUNS sets the samples per parameter (default 2), FUZZ_SEED the seed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_JSON_DEPTH, type ParamSpec } from '../../src/http/params.ts';
import type { Route } from '../../src/http/route.ts';
import { rootRoutes, routes } from '../../src/routes/index.ts';
import { startServer } from '../helpers/server.ts';
import { databaseDigest, rawRequest, type RawResponse } from '../helpers/fuzz.ts';
import { otherParams } from '../helpers/walk.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2);
const SEED = Number(process.env.FUZZ_SEED ?? 18);

const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);
// Past both databases' limits on bound variables (SQLite 32,766, PostgreSQL 65,535).
const bigList = JSON.stringify(Array.from({ length: 70_000 }, (_, i) => i + 1));

/** Values any parameter may meet: wrong types, extremes, NUL, lone surrogates, deep and long JSON. */
const CATALOGUE = [
  '', 'null', '-1', '1.5', '99999999999999999999999', 'x'.repeat(100_000), 'a\u0000b', '"\\u0000"', '\ud800',
  '[{}]', '{"__proto__":{"polluted":1}}', deep(MAX_JSON_DEPTH + 1),
];

/** Values for a parameter from fast-check: any JSON, strings of any code points, numbers, lists. */
function sampled(seed: number): string[] {
  const value = fc.oneof(
    fc.json(),
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.integer().map(String),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
    fc.double().map(String),
    fc.array(fc.oneof(fc.integer(), fc.constant(null), fc.string()), { maxLength: 20 }).map((a) => JSON.stringify(a)),
  );
  return fc.sample(value, { seed, numRuns: RUNS });
}

/** A JSON list of 70,000 IDs for parameters that take a list (too many SQL variables at once). */
const acceptsList = (spec: ParamSpec<unknown>): boolean => {
  try {
    spec.parse('[1]', 'x');
    return true;
  } catch {
    return false;
  }
};

/** Path parameters that name the rows the test made, so requests reach past "no such row". */
const rows: Record<string, string> = {};

function urlOf(r: Route, prefix: string, userId: number, values: Record<string, string> = {}): string {
  const filled = r.path.replace(/\{(\w+)\}/g, (_m, n: string) => values[n] ?? rows[n] ?? (n.includes('user') ? String(userId) : '1'));
  return prefix + filled.replace('*', '1/x/file.txt');
}

/** Percent-encodes the UTF-8 of a value (a lone surrogate becomes U+FFFD, as in a browser). */
function percentEncode(v: string): string {
  return [...Buffer.from(v, 'utf8')].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`)).join('');
}

function form(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

interface Case {
  what: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

/** The requests for one parameter of a route: the catalogue and samples, in the query or body. */
function paramCases(r: Route, prefix: string, userId: number, name: string, spec: ParamSpec<unknown>, seed: number): Case[] {
  const values = [...CATALOGUE, ...sampled(seed), ...(acceptsList(spec) ? [bigList] : [])];
  if (spec.inPath) {
    // Path values travel percent-encoded, and some raw: bad escapes, and longer than the router allows.
    const raws = [...values.map(percentEncode), '%zz', '%', '%FF%FE', '%C0%AF', 'a'.repeat(2000), '..%2F..%2Fetc'];
    const body = form(otherParams(r, name));
    return raws.map((v) => ({ what: `${name} in path = ${JSON.stringify(v.slice(0, 60))}`, method: r.method, url: urlOf(r, prefix, userId, { [name]: v }), body }));
  }
  const others = otherParams(r, name);
  const url = urlOf(r, prefix, userId);
  return values.map((v) => {
    const params = form({ ...others, [name]: v });
    const what = `${name} = ${JSON.stringify(v.slice(0, 60))}${v.length > 60 ? `... (${v.length} chars)` : ''}`;
    return r.method === 'GET' ? { what, method: r.method, url: `${url}?${params}` } : { what, method: r.method, url, body: params };
  });
}

/** Malformed bodies and encodings, whatever the route's parameters. */
function bodyCases(r: Route, prefix: string, userId: number): Case[] {
  const url = urlOf(r, prefix, userId);
  const first = Object.keys(r.params).find((n) => !r.params[n]!.inPath) ?? 'x';
  const others = otherParams(r, first);
  const json = { 'content-type': 'application/json' };
  const multipart = (ct: string, body: string): Case => ({ what: `multipart ${ct}`, method: r.method, url, headers: { 'content-type': ct }, body });
  return [
    { what: 'JSON body nested 100,000 deep', method: r.method, url, headers: json, body: `{"${first}":${deep(100_000)}}` },
    { what: 'JSON body with a deep unknown key', method: r.method, url, headers: json, body: JSON.stringify(others).replace(/}$/, `${Object.keys(others).length ? ',' : ''}"zz":${deep(1000)}}`) },
    { what: 'JSON body not an object', method: r.method, url, headers: json, body: '[1,2,3]' },
    { what: 'JSON body malformed', method: r.method, url, headers: json, body: '{"a":' },
    multipart('multipart/form-data', 'abc'),
    multipart('multipart/form-data; boundary=', 'abc'),
    multipart('multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="${first}"; filename="a"\r\n\r\nvvvv`),
    multipart('multipart/form-data; boundary=x', `--x\r\nContent-Disposition: form-data; name="${first}"\r\n\r\nv\r\n--x\r\nbroken header\r\n\r\n\r\n--x--`),
    { what: 'urlencoded invalid UTF-8', method: r.method, url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: Buffer.concat([Buffer.from(`${form(others)}&${first}=`), Buffer.from([0xff, 0xfe, 0xc0, 0xaf])]) },
    { what: 'urlencoded bad percent-encoding', method: r.method, url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `${form(others)}&${first}=%zz%&%=%%` },
    { what: 'query with bad percent-encoding', method: r.method, url: `${url}?${first}=%zz&%E0%A4%A=1` },
    { what: 'unknown content type', method: r.method, url, headers: { 'content-type': 'text/x-unknown' }, body: 'x' },
  ];
}

function checkResponse(c: Case, res: RawResponse, seed: number): void {
  const what = `${c.method} ${c.url.slice(0, 120)} with ${c.what} (FUZZ_SEED=${seed}): ${res.status} ${res.text.slice(0, 300)}`;
  assert.ok(res.status < 500, what);
  if (res.status < 400) return;
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    assert.fail(`not JSON: ${what}`);
  }
  const b = body as Record<string, unknown>;
  assert.equal(b.result, 'error', what);
  assert.equal(typeof b.msg, 'string', what);
  assert.equal(typeof b.code, 'string', what);
}

test('fuzzing every route: no 5xx, no hang, the API error shape, no change from refused requests', async (t) => {
  const started = Date.now();
  const s = await startServer();
  t.after(() => s.close());
  // Rows for the fillers to name: a stream with a message, a user group, another user.
  await s.ok('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: 'fuzz' }] });
  const sent = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'fuzz', topic: 't', content: 'hello' });
  const other = await s.createUser('Other');
  const group = await s.ok('POST', '/api/v1/user_groups/create', { name: 'fuzzers', description: 'd', members: [s.owner.id, other.id] });
  Object.assign(rows, { message_id: String(sent.id), user_group_id: String(group.group_id) });
  const auth = (): string => 'Basic ' + Buffer.from(`${s.owner.email}:${s.owner.apiKey}`).toString('base64');
  const db = s.server.app.db.kysely;

  const table: [Route, string][] = [...routes.map((r): [Route, string] => [r, '/api/v1']), ...rootRoutes.map((r): [Route, string] => [r, ''])];
  let requests = 0;
  let refused = 0;
  let verified = 0;
  let seed = SEED;
  for (const [r, prefix] of table) {
    const groups: Case[][] = Object.entries(r.params).map(([name, spec]) => paramCases(r, prefix, s.owner.id, name, spec, seed++));
    groups.push(bodyCases(r, prefix, s.owner.id));
    for (const group of groups) {
      // A group of requests all refused must leave every table as it was.
      const before = await databaseDigest(db, s.server.app.db.dialect);
      let succeeded = false;
      for (const c of group) {
        const res = await rawRequest(s.baseUrl, c.method, c.url, { authorization: auth(), ...c.headers }, c.body);
        checkResponse(c, res, SEED);
        // Thousands of requests as one user: rate limits must be raised for this server, or the
        // routes would never be reached.
        assert.notEqual(res.status, 429, `rate limited at ${r.method} ${r.path}`);
        requests++;
        if (res.status >= 400) refused++;
        else {
          succeeded = true;
          // A success may have given the owner a new API key (regenerating it takes no parameters).
          const row = await db.selectFrom('users').select('api_key').where('id', '=', s.owner.id).executeTakeFirstOrThrow();
          s.owner.apiKey = row.api_key;
        }
      }
      if (!succeeded) {
        assert.equal(await databaseDigest(db, s.server.app.db.dialect), before, `${r.method} ${r.path}: refused requests changed the database (${group[0]?.what}...)`);
        verified++;
      }
    }
  }
  // Requests the HTTP parser refuses before any route: headers too large, a body past the limit.
  const huge = await rawRequest(s.baseUrl, 'GET', `/api/v1/users?x=${'a'.repeat(100_000)}`, { authorization: auth() });
  checkResponse({ what: 'a URL past the header limit', method: 'GET', url: '/api/v1/users' }, huge, SEED);
  const oversized = await rawRequest(s.baseUrl, 'POST', '/api/v1/messages', { authorization: auth(), 'content-type': 'application/x-www-form-urlencoded' }, Buffer.alloc(17 * 1024 * 1024, 'a'));
  checkResponse({ what: 'a 17 MiB body', method: 'POST', url: '/api/v1/messages' }, oversized, SEED);
  assert.equal(oversized.status, 413);

  // Still healthy: it answers, and a request that should succeed does.
  const me = await s.ok('GET', '/api/v1/users/me');
  assert.equal(me.user_id, s.owner.id);
  await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'fuzz', topic: 't', content: 'still here' });
  t.diagnostic(`${table.length} routes, ${requests} requests (${refused} refused), ${verified} groups of refused requests checked against the database, ${((Date.now() - started) / 1000).toFixed(1)} s, FUZZ_RUNS=${RUNS} FUZZ_SEED=${SEED}`);
  assert.ok(table.length > 100 && requests > 5000, `only ${table.length} routes, ${requests} requests`);
  assert.ok(verified > requests / 100, `only ${verified} groups checked against the database`);
});
