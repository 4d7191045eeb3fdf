// The idle-memory figure of bench/standard.ts alone, with what makes it up: `parley serve` as
// `npm start` runs it (compiled), on a copy of the standard organization (SQLite), used a little
// (register, the 50 newest messages, 10 sends to the 50-subscriber stream, /users/me), then
// QUIET_SECONDS of quiet; then its RSS from /proc and, from a Node report taken after that
// reading, the JavaScript heap (used / total), external memory and the native libraries loaded.
// RUNS fresh processes (default 3) on one copy; the medians close the table.
// Run: npx tsx bench/idle-memory.ts   (RUNS, QUIET_SECONDS, and the size variables of generate.ts)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledIsCurrent } from '../bin/compiled.js';
import { apiClient, type Call } from './_client.ts';
import { BENCH_RATE_LIMITS } from './_limits.ts';
import { generateOrganization, sizeFromEnv, type Organization } from './generate.ts';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.RUNS ?? 3);
const QUIET_SECONDS = Number(process.env.QUIET_SECONDS ?? 30);
const MB = 1024 * 1024;

const log = (s: string) => process.stderr.write(`[idle-memory ${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

interface Sample {
  /** What the figure of issue 19 is: VmRSS. */
  rss: number;
  /** VmRSS split: anonymous memory (heaps, stacks) and mapped files (code, libraries). */
  rssAnon: number;
  rssFile: number;
  /** RSS when the server first answered, before any use. */
  startRss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  /** malloc'd memory V8 accounts for (outside its heap). */
  malloced: number;
  /** Native libraries (.node addons and their .so files) loaded by then. */
  libraries: string[];
}

/** /proc/<pid>/status fields in MB. */
function procStatus(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of fs.readFileSync(`/proc/${pid}/status`, 'utf8').matchAll(/^(\w+):\s+(\d+) kB$/gm)) out[m[1]!] = Number(m[2]) / 1024;
  return out;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function waitListening(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; ; i++) {
    if (await fetch(url).then((r) => r.status < 500, () => false)) return;
    if (child.exitCode !== null || i > 3000) throw new Error(`${url} did not start`);
    await sleep(50);
  }
}

/** The Node report the process writes on SIGUSR2 (`--report-on-signal`), parsed. */
async function report(child: ChildProcess, dir: string): Promise<any> {
  const before = new Set(fs.readdirSync(dir));
  child.kill('SIGUSR2');
  for (let i = 0; i < 200; i++) {
    await sleep(50);
    const file = fs.readdirSync(dir).find((f) => !before.has(f));
    if (!file) continue;
    try {
      return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    } catch {
      // still being written
    }
  }
  throw new Error('no Node report');
}

async function apiKey(call: Call, email: string, password: string): Promise<string> {
  const r = await call('POST', '/fetch_api_key', '', { username: email, password });
  if (r.status !== 200) throw new Error(`fetch_api_key ${email}: ${JSON.stringify(r.body)}`);
  return `${email}:${String(r.body.api_key)}`;
}

async function oneRun(org: Organization, dataDir: string, reports: string): Promise<Sample> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'bin', 'parley.js'), 'serve', '--host', '127.0.0.1', '--port', String(port), '--data-dir', dataDir], {
    // The report's signal handler is only set up; nothing else changes in the process.
    env: { ...process.env, ...BENCH_RATE_LIMITS, LOG_LEVEL: 'warn', EXTERNAL_HOST: 'localhost', DATABASE_URL: '', REDIS_URL: '', NODE_OPTIONS: `--report-on-signal --report-directory=${reports}` },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await waitListening(`http://127.0.0.1:${port}/api/v1/server_settings`, child);
  const startRss = procStatus(child.pid!).VmRSS!;
  // The same little use as bench/standard.ts.
  const { call, agent } = apiClient(`http://127.0.0.1:${port}/api/v1`);
  const owner = await apiKey(call, org.owner, org.password);
  const reader = await apiKey(call, org.reader.email, org.password);
  await call('POST', '/register', reader, {});
  await call('GET', '/messages', reader, { anchor: 'newest', num_before: 50, num_after: 0, narrow: '[]' });
  for (let i = 0; i < 10; i++) await call('POST', '/messages', owner, { type: 'stream', to: org.fifty.id, topic: 'warm', content: `a little use ${i}` });
  await call('GET', '/users/me', reader);
  agent.destroy();
  await sleep(QUIET_SECONDS * 1000);
  const status = procStatus(child.pid!);
  const r = await report(child, reports);
  child.kill('SIGTERM');
  await exited;
  const heap = r.javascriptHeap;
  const libraries = (r.sharedObjects as string[]).filter((f) => f.includes('node_modules')).map((f) => path.basename(f));
  return {
    rss: status.VmRSS!,
    rssAnon: status.RssAnon!,
    rssFile: status.RssFile!,
    startRss,
    heapUsed: heap.usedMemory / MB,
    heapTotal: heap.totalMemory / MB,
    external: heap.externalMemory / MB,
    malloced: heap.mallocedMemory / MB,
    libraries,
  };
}

async function main(): Promise<void> {
  if (!compiledIsCurrent(root)) {
    log('dist/ is older than src/: npm run build');
    const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (b.status !== 0 || !compiledIsCurrent(root)) throw new Error('npm run build failed');
  }
  const org = await generateOrganization(sizeFromEnv(), null);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-idle-'));
  const reports = path.join(dataDir, 'reports');
  fs.mkdirSync(reports);
  log(`copying the organization's database (${org.size.messages.toLocaleString('en')} messages)`);
  fs.copyFileSync(path.join(org.dataDir!, 'parley.db'), path.join(dataDir, 'parley.db'));
  const samples: Sample[] = [];
  for (let i = 0; i < RUNS; i++) {
    log(`run ${i + 1} of ${RUNS} (${QUIET_SECONDS} s quiet)`);
    samples.push(await oneRun(org, dataDir, reports));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });

  const columns: [string, keyof Sample][] = [
    ['RSS', 'rss'],
    ['anon', 'rssAnon'],
    ['file', 'rssFile'],
    ['at start', 'startRss'],
    ['heap used', 'heapUsed'],
    ['heap total', 'heapTotal'],
    ['external', 'external'],
    ['malloced', 'malloced'],
  ];
  console.log(`Idle server memory, MB (compiled parley serve, SQLite; ${QUIET_SECONDS} s quiet; load average ${os.loadavg()[0]!.toFixed(1)})`);
  console.log(['run', ...columns.map(([name]) => name)].map((s) => s.padStart(11)).join(''));
  const row = (name: string, pick: (k: keyof Sample) => number) => console.log([name, ...columns.map(([, k]) => pick(k).toFixed(1))].map((s) => s.padStart(11)).join(''));
  samples.forEach((s, i) => row(String(i + 1), (k) => s[k] as number));
  row('median', (k) => median(samples.map((s) => s[k] as number)));
  console.log(`native libraries loaded: ${samples[0]!.libraries.join(', ') || 'none'}`);
}

await main();
