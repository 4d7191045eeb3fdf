// The web client's budgets (issue 14), in Debian's Chromium driven by playwright-core, against
// `parley serve` on the standard organization of bench/generate.ts:
//   (a) the JavaScript the main view loads, gzipped (CSS apart): 150 KB;
//   (b) from clicking "Log in" to the first message `article` painted in the `main` landmark,
//       as a member subscribed to many streams with unread messages: 1 s;
//   (c) a message another user sends through the API, from the send request's start to its
//       `article` painted in the page: 100 ms (median).
// Each run of (a) and (b) is a new browser context (no cache, no cookies); figures are medians.
// Run: npx tsx bench/web.ts   (RUNS=5, LIVE=50; the organization's USERS, STREAMS, MESSAGES;
// DATABASE_URL for PostgreSQL; CHROMIUM_PATH, default /usr/bin/chromium). Needs `npm run build:web`.
// ORG_DB=/path/parley.db runs on an organization already built (even by an older version: the
// server migrates its copy forward), as a full-size build takes long; the file is copied, never
// opened in place. Its description is the build's `<folder>.json` beside the folder.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { generateOrganization, type Organization } from './generate.ts';
import { apiClient } from './_client.ts';
import { INSTRUMENT, type PwBrowser, type PwPage } from './_web-page.ts';

const RUNS = Number(process.env.RUNS ?? 5);
const LIVE = Number(process.env.LIVE ?? 50);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = process.env.WEB_DIR ? path.resolve(process.env.WEB_DIR) : path.join(root, 'web', 'dist');

const log = (s: string) => process.stderr.write(`[web ${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const quantile = (xs: number[], q: number) => sorted(xs)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until `condition` (page JavaScript) holds. Evaluated through the DevTools protocol, as
 * Playwright's waitForFunction is not: that one needs eval, which the app's CSP forbids.
 */
async function waitInPage(page: PwPage, condition: string, timeoutMs: number): Promise<void> {
  const ok = await page.evaluate(`new Promise((resolve) => {
    const until = performance.now() + ${timeoutMs};
    const check = () => (${condition}) ? resolve(true) : performance.now() > until ? resolve(false) : setTimeout(check, 10);
    check();
  })`);
  if (ok !== true) throw new Error(`timed out after ${timeoutMs} ms waiting for ${condition}`);
}

function skip(reason: string): never {
  console.log(`bench/web.ts skipped: ${reason}`);
  process.exit(0);
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** `parley serve` as a person runs it, on a copy of the organization (runs leave the cache alone). */
async function serve(org: Organization): Promise<{ child: ChildProcess; url: string; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-web-'));
  if (org.dataDir) fs.copyFileSync(path.join(org.dataDir, 'parley.db'), path.join(dataDir, 'parley.db'));
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', WEB_DIR: webDir };
  delete env.DATABASE_URL;
  if (org.databaseUrl) env.DATABASE_URL = org.databaseUrl;
  const child = spawn(process.execPath, [path.join(root, 'bin', 'parley.js'), 'serve', '--host', '127.0.0.1', '--port', String(port), '--data-dir', dataDir], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://localhost:${port}`;
  for (let i = 0; ; i++) {
    const ok = await fetch(`${url}/`).then((r) => r.ok, () => false);
    if (ok) break;
    if (child.exitCode !== null || i > 3000) throw new Error('parley serve did not start');
    await sleep(100);
  }
  return { child, url, dataDir };
}

function rssMb(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

/** The bytes the server sends for `url` when asked for gzip. */
function gzippedSize(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
      let n = 0;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => {
        n += c.length;
        chunks.push(c);
      });
      res.on('end', () => {
        // A server that does not compress: count what gzip would make of it.
        resolve(res.headers['content-encoding'] === 'gzip' ? n : zlib.gzipSync(Buffer.concat(chunks)).length);
      });
      res.on('error', reject);
    });
  });
}

interface RunResult {
  loginToPaintMs: number;
  scripts: { url: string; transferred: number }[];
  /** The API calls made before the first message was painted, with their durations. */
  calls: { path: string; ms: number }[];
}

async function loginRun(browser: PwBrowser, url: string, org: Organization): Promise<{ result: RunResult; page: PwPage; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(300_000);
  const page = await context.newPage();
  page.on('pageerror', (e) => log(`page error: ${(e as Error).message}`));
  await page.addInitScript(INSTRUMENT);
  // All messages, whatever the person's home view: the budget is the message list's first paint.
  await page.goto(`${url}/#feed`);
  await page.getByRole('textbox', { name: 'Email' }).fill(org.reader.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(org.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await waitInPage(page, 'window.__bench.firstArticle > 0', 300_000);
  // Scripts the main view fetches a little later (lazy parts) count too.
  await sleep(1000);
  const result = (await page.evaluate(`(() => ({
    loginToPaintMs: window.__bench.firstArticle - window.__bench.click,
    scripts: performance.getEntriesByType('resource')
      .filter((e) => /\\.m?js(\\?|$)/.test(new URL(e.name).pathname))
      .map((e) => ({ url: e.name, transferred: e.encodedBodySize })),
    calls: performance.getEntriesByType('resource')
      .filter((e) => ['/json/', '/accounts/'].some((p) => new URL(e.name).pathname.startsWith(p)) && performance.timeOrigin + e.startTime < window.__bench.firstArticle)
      .map((e) => ({ path: new URL(e.name).pathname, ms: Math.round(e.duration) })),
  }))()`)) as RunResult;
  return { result, page, close: () => context.close() };
}

/** page clock minus this process's clock (both epoch milliseconds), from the tightest of a few round trips. */
async function clockOffset(page: PwPage): Promise<number> {
  let best = { rtt: Infinity, offset: 0 };
  for (let i = 0; i < 20; i++) {
    const a = performance.timeOrigin + performance.now();
    const p = (await page.evaluate('performance.timeOrigin + performance.now()')) as number;
    const b = performance.timeOrigin + performance.now();
    if (b - a < best.rtt) best = { rtt: b - a, offset: p - (a + b) / 2 };
  }
  return best.offset;
}

async function liveRun(page: PwPage, url: string, org: Organization): Promise<{ paint: number[]; answer: number[] }> {
  const { call, agent } = apiClient(`${url}/api/v1`);
  try {
    const key = await call('POST', '/fetch_api_key', '', { username: org.owner, password: org.password });
    if (key.status !== 200) throw new Error(`fetch_api_key: ${JSON.stringify(key.body)}`);
    const auth = `${org.owner}:${key.body.api_key as string}`;
    const topic = `live ${Date.now()}`;
    await page.evaluate(`location.hash = '#narrow/channel/${org.fifty.id}-${org.fifty.name}/topic/${encodeURIComponent(topic).replace(/%/g, '.')}'`);
    await page.getByRole('main').waitFor();
    await sleep(500);
    const offset = await clockOffset(page);
    const paint: number[] = [];
    const answer: number[] = [];
    const warmup = 5;
    for (let i = 0; i < warmup + LIVE; i++) {
      const t0 = performance.timeOrigin + performance.now();
      const r = await call('POST', '/messages', auth, { type: 'stream', to: org.fifty.id, topic, content: `bench-live-${i} ${'a'.repeat(i % 40)} done` });
      const t1 = performance.timeOrigin + performance.now();
      if (r.status !== 200) throw new Error(`send: ${JSON.stringify(r.body)}`);
      await waitInPage(page, `window.__bench.live[${i}] > 0`, 10_000);
      const painted = (await page.evaluate(`window.__bench.live[${i}]`)) as number;
      if (i >= warmup) {
        paint.push(painted - offset - t0);
        answer.push(t1 - t0);
      }
      await sleep(150);
    }
    return { paint, answer };
  } finally {
    agent.destroy();
  }
}

/**
 * The organization of a build in `db`'s folder, described by the `<folder>.json` that
 * generate.ts writes beside it (the users to log in as, the streams to send to).
 */
function existingOrganization(db: string): Organization {
  const file = path.resolve(db);
  if (!fs.existsSync(file)) throw new Error(`ORG_DB: no file ${file}`);
  const info = `${path.dirname(file)}.json`;
  if (!fs.existsSync(info)) throw new Error(`ORG_DB: no description ${info} (written by bench/generate.ts) beside the database`);
  const org = JSON.parse(fs.readFileSync(info, 'utf8')) as Organization;
  if (org.databaseUrl) throw new Error(`ORG_DB: ${info} describes a PostgreSQL build`);
  // serve() copies `<dataDir>/parley.db`: point it at the file given, under that name.
  if (path.basename(file) !== 'parley.db') throw new Error('ORG_DB: the file must be named parley.db');
  return { ...org, dataDir: path.dirname(file) };
}

async function main(): Promise<void> {
  if (!fs.existsSync(CHROMIUM)) skip(`Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium)`);
  if (!fs.existsSync(path.join(webDir, 'index.html'))) skip(`the web client is not built in ${webDir}: run npm run build:web`);
  let chromium: { launch(o: object): Promise<PwBrowser> };
  try {
    // Imported by name: playwright-core comes with the web client's dev dependencies.
    const name = 'playwright-core';
    ({ chromium } = (await import(name)) as { chromium: typeof chromium });
  } catch {
    skip('playwright-core is not installed (npm install)');
  }
  const org = process.env.ORG_DB ? existingOrganization(process.env.ORG_DB) : await generateOrganization();
  log(`organization: ${org.size.users} users, ${org.size.streams} streams, ${org.size.messages} messages; ${org.reader.email} in ${org.reader.streams} streams with ${org.reader.unread} unread`);
  const server = await serve(org);
  log(`parley serve at ${server.url} (pid ${server.child.pid}), memory at start ${rssMb(server.child.pid!).rss} MB`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const logins: number[] = [];
    const jsGzip: number[] = [];
    const jsWire: number[] = [];
    let last: Awaited<ReturnType<typeof loginRun>> | null = null;
    for (let i = 0; i < RUNS; i++) {
      await last?.close();
      last = await loginRun(browser, server.url, org);
      const { loginToPaintMs, scripts, calls } = last.result;
      const gz = (await Promise.all(scripts.map((s) => gzippedSize(s.url)))).reduce((a, b) => a + b, 0);
      logins.push(loginToPaintMs);
      jsGzip.push(gz);
      jsWire.push(scripts.reduce((a, s) => a + s.transferred, 0));
      log(`run ${i + 1}: "Log in" to first message painted ${loginToPaintMs.toFixed(0)} ms; ${scripts.length} scripts, ${(gz / 1024).toFixed(1)} KB gzipped; API calls before it: ${calls.map((c) => `${c.path} ${c.ms} ms`).join(', ')}`);
    }
    const live = await liveRun(last!.page, server.url, org);
    await last!.close();
    const mem = rssMb(server.child.pid!);
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    const ms = (n: number) => `${n.toFixed(0)} ms`;
    const rows: [string, string, string, string][] = [
      ['main view JavaScript, gzipped (CSS apart)', kb(quantile(jsGzip, 0.5)), '150 KB', quantile(jsGzip, 0.5) <= 150 * 1024 ? 'ok' : 'OVER'],
      [`"Log in" to first message painted (median of ${RUNS})`, ms(quantile(logins, 0.5)), '1 s', quantile(logins, 0.5) <= 1000 ? 'ok' : 'OVER'],
      [`live message, send to painted: median (n=${live.paint.length})`, ms(quantile(live.paint, 0.5)), '100 ms', quantile(live.paint, 0.5) <= 100 ? 'ok' : 'OVER'],
      ['live message, send to painted: p90', ms(quantile(live.paint, 0.9)), '', ''],
      ['  of which the send request itself (median / p90)', `${ms(quantile(live.answer, 0.5))} / ${ms(quantile(live.answer, 0.9))}`, '', ''],
      ['main view JavaScript as transferred to Chromium', kb(quantile(jsWire, 0.5)), '', ''],
      ['"Log in" to first message painted: min / max', `${ms(Math.min(...logins))} / ${ms(Math.max(...logins))}`, '', ''],
      ['server memory after the run: RSS (peak)', `${mem.rss} MB (${mem.peak} MB)`, '', ''],
    ];
    const width = Math.max(...rows.map((r) => r[0].length));
    console.log(`\nweb client on ${org.size.users} users, ${org.size.streams} streams, ${org.size.messages} messages (${org.databaseUrl ? 'PostgreSQL' : 'SQLite'}); load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log(`${'figure'.padEnd(width)} | measured            | budget`);
    for (const [name, value, budget, verdict] of rows) console.log(`${name.padEnd(width)} | ${value.padEnd(19)} | ${budget} ${verdict}`);
  } finally {
    await browser.close();
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
}

await main();
