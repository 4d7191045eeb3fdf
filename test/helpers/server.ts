// Test servers on temporary databases, and an HTTP client that speaks the API's conventions.
// Every test builds its own server: a fresh SQLite file, or with TEST_DATABASE_URL a fresh
// PostgreSQL database created for it and dropped afterwards.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { createServer, type Server } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { checkCreateRealm } from '../../src/actions/realms.ts';
import { createLogger } from '../../src/log.ts';
import { checkResponse } from './openapi.ts';

export interface Account {
  id: number;
  email: string;
  apiKey: string;
  /** The login password (the owner's, and users made by createUser). */
  password?: string;
}

export interface ApiResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> & { result: string; msg: string; code?: string };
}

export type Params = Record<string, unknown>;

export interface TestServer {
  server: Server;
  baseUrl: string;
  config: Config;
  /** The PostgreSQL database of this server (null on SQLite), for a restart on the same data. */
  databaseUrl: string | null;
  owner: Account;
  /** Every event published since the server started, with its receivers, oldest first. */
  published: { event: Record<string, any>; userIds: number[] }[];
  /** Calls the API as `as` (or anonymously with `as: null`), checking 2xx bodies against the reference. */
  api(method: string, apiPath: string, params?: Params, opts?: { as?: Account | null; host?: string }): Promise<ApiResponse>;
  /** Like api(), but asserts success and returns the body. */
  ok(method: string, apiPath: string, params?: Params, as?: Account): Promise<Record<string, any>>;
  /** Creates a member (or another role) through the API. */
  createUser(name: string, opts?: { role?: number }): Promise<Account>;
  /** Stops the server; `keepData` leaves its database (and data folder) for a restart. */
  close(opts?: { keepData?: boolean }): Promise<void>;
}

/** Form-encodes params the way clients of this API do: strings as they are, the rest as JSON. */
export function encodeParams(params: Params): URLSearchParams {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return form;
}

async function dropPostgres(adminUrl: string, url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^parley_t_[0-9a-f]+$/.test(name)) return;
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await c.end();
}

/** A fresh PostgreSQL database next to the admin URL's, for one test. */
export async function temporaryPostgres(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `parley_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => dropPostgres(adminUrl, url.toString()) };
}

/** node:http rather than fetch, which will not send a Host header of our choosing. */
export function httpRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** A request with the API's form encoding: a GET's parameters in the query, any other's in the body. */
export function formRequest(url: string, method: string, headers: Record<string, string>, params: Params): ReturnType<typeof httpRequest> {
  const form = encodeParams(params);
  if (method === 'GET') {
    const qs = form.toString();
    return httpRequest(qs ? url + (url.includes('?') ? '&' : '?') + qs : url, method, headers);
  }
  return httpRequest(url, method, { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, form.toString());
}

/**
 * Tests send hundreds of requests in a moment and log in again and again: their servers' limits
 * are far out of reach unless a test sets its own (`env`).
 */
export const TEST_RATE_LIMITS: Record<string, string> = {
  RATE_LIMIT_API_BY_USER: '1000000/60',
  RATE_LIMIT_API_BY_ADDRESS: '1000000/60',
  RATE_LIMIT_AUTH_BY_USERNAME: '1000000/60',
  RATE_LIMIT_AUTH_BY_ADDRESS: '1000000/60',
  MAX_EVENT_QUEUES_PER_USER: '100000',
};

export interface StartOptions {
  env?: Record<string, string>;
  /** An existing data folder; with a realm already in its database, the server restarts on it. */
  dataDir?: string;
  /** An existing PostgreSQL database (from an earlier server's `databaseUrl`) to restart on. */
  databaseUrl?: string | null;
}

export async function startServer(opts: StartOptions = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'parley-test-'));
  const pgAdmin = process.env.TEST_DATABASE_URL;
  const tempPg = pgAdmin ? (opts.databaseUrl ? { url: opts.databaseUrl, drop: () => dropPostgres(pgAdmin, opts.databaseUrl!) } : await temporaryPostgres(pgAdmin)) : null;
  const config = loadConfig(
    { host: '127.0.0.1', port: '0', 'data-dir': dataDir, ...(tempPg ? { 'database-url': tempPg.url } : {}) },
    { ...TEST_RATE_LIMITS, ...opts.env, EXTERNAL_HOST: 'localhost' },
  );
  const published: TestServer['published'] = [];
  const server = await createServer(config, {
    log: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    onPublish: (event, userIds) => published.push({ event, userIds: [...userIds] }),
  });
  const baseUrl = await server.listen();
  const port = new URL(baseUrl).port;
  // A restart on existing data keeps its realm and owner.
  const existingOwner = await server.app.db.kysely
    .selectFrom('users')
    .select(['id', 'api_key'])
    .where('email', '=', 'owner@example.com')
    .executeTakeFirst();
  const r = existingOwner
    ? { userId: existingOwner.id, apiKey: existingOwner.api_key }
    : await checkCreateRealm(server.app, {
        name: 'Test Org',
        subdomain: '',
        ownerEmail: 'owner@example.com',
        ownerName: 'Olivia Owner',
        ownerPassword: 'owner-password',
      });
  const owner: Account = { id: r.userId, email: 'owner@example.com', apiKey: r.apiKey, password: 'owner-password' };

  const api: TestServer['api'] = async (method, apiPath, params = {}, o = {}) => {
    const as = o.as === undefined ? owner : o.as;
    const headers: Record<string, string> = { host: o.host ?? `localhost:${port}` };
    if (as) headers.authorization = 'Basic ' + Buffer.from(`${as.email}:${as.apiKey}`).toString('base64');
    const res = await formRequest(baseUrl + apiPath, method, headers, params);
    const text = res.text;
    let json: ApiResponse['body'];
    try {
      json = JSON.parse(text) as ApiResponse['body'];
    } catch {
      throw new Error(`${method} ${apiPath}: response is not JSON (${res.status}): ${text.slice(0, 200)}`);
    }
    assert.notEqual(res.status, 500, `${method} ${apiPath} answered 500: ${text}`);
    if (res.status >= 200 && res.status < 300) {
      const errors = checkResponse(method, apiPath, json);
      assert.deepEqual(errors, [], `${method} ${apiPath}: response does not match the reference schema:\n${errors.join('\n')}\n${text.slice(0, 2000)}`);
    }
    return { status: res.status, headers: res.headers, body: json };
  };

  const ok: TestServer['ok'] = async (method, apiPath, params, as) => {
    const res = await api(method, apiPath, params, { as: as ?? owner });
    assert.equal(res.status, 200, `${method} ${apiPath} failed: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.result, 'success');
    return res.body as Record<string, any>;
  };

  let counter = 0;
  const createUser: TestServer['createUser'] = async (name, o = {}) => {
    const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}${counter++ || ''}@example.com`;
    const password = `pw-${name}-secret`;
    const { user_id } = await ok('POST', '/api/v1/users', { email, password, full_name: name });
    const { api_key } = await ok('POST', '/api/v1/fetch_api_key', { username: email, password });
    const account: Account = { id: user_id as number, email, apiKey: api_key as string, password };
    if (o.role !== undefined) await ok('PATCH', `/api/v1/users/${account.id}`, { role: o.role });
    return account;
  };

  return {
    server,
    baseUrl,
    config,
    databaseUrl: tempPg?.url ?? null,
    owner,
    published,
    api,
    ok,
    createUser,
    async close(o = {}) {
      await server.close();
      if (o.keepData) return;
      if (tempPg) await tempPg.drop();
      if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A browser's session: its cookies, and requests made with them (as the web app makes them). */
export interface BrowserSession {
  /** The Cookie header the browser sends. */
  cookie: string;
  csrfToken: string;
  /** The Set-Cookie headers of the login. */
  setCookies: string[];
  /**
   * Calls a path (normally under /json) with the cookie, and on unsafe methods the session's
   * CSRF token unless `csrf` says otherwise (null: none). 2xx bodies are checked like api()'s.
   */
  request(method: string, apiPath: string, params?: Params, opts?: { csrf?: string | null }): Promise<ApiResponse & { headers: http.IncomingHttpHeaders }>;
}

function cookiePair(setCookie: string): [string, string] {
  const first = setCookie.split(';')[0]!;
  const eq = first.indexOf('=');
  return [first.slice(0, eq), first.slice(eq + 1)];
}

/** Logs `as` in through POST /accounts/login/ (the owner unless told) and returns the session. */
export async function browserLogin(s: TestServer, as: Account = s.owner): Promise<BrowserSession> {
  assert.ok(as.password, `no password known for ${as.email}`);
  const host = new URL(s.baseUrl).host;
  const res = await httpRequest(`${s.baseUrl}/accounts/login/`, 'POST', { host, 'content-type': 'application/x-www-form-urlencoded' }, encodeParams({ username: as.email, password: as.password }).toString());
  assert.equal(res.status, 200, `login of ${as.email} failed: ${res.text}`);
  const setCookies = res.headers['set-cookie'] ?? [];
  const jar = new Map(setCookies.map(cookiePair));
  const session: BrowserSession = {
    cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    csrfToken: jar.get('parley_csrf') ?? '',
    setCookies,
    async request(method, apiPath, params = {}, opts = {}) {
      const headers: Record<string, string> = { host, cookie: session.cookie };
      const csrf = opts.csrf === undefined ? session.csrfToken : opts.csrf;
      if (method !== 'GET' && csrf !== null) headers['x-csrftoken'] = csrf;
      const r = await formRequest(s.baseUrl + apiPath, method, headers, params);
      const json = JSON.parse(r.text) as ApiResponse['body'];
      assert.notEqual(r.status, 500, `${method} ${apiPath} answered 500: ${r.text}`);
      if (r.status >= 200 && r.status < 300) {
        const errors = checkResponse(method, apiPath, json);
        assert.deepEqual(errors, [], `${method} ${apiPath}: response does not match the reference schema:\n${errors.join('\n')}`);
      }
      return { status: r.status, body: json, headers: r.headers };
    },
  };
  return session;
}
