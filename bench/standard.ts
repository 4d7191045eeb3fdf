// The standard workload of issue 19, one table: `npm run bench` (or `npx tsx bench/standard.ts`).
// On the organization of bench/generate.ts (1,000 users, 200 streams, 1,000,000 messages; cached),
// `parley serve` as a person runs it, on a copy, beside a bare node:http server measured in the
// same run:
//   - GET /users/me throughput (closed loop) and the server's CPU time per request;
//   - POST /messages at 200/s to the 50-subscriber stream, all 50 subscribers long-polling:
//     the send's latency (p50, p99) and send-to-delivery (p99), nothing lost (after a warm-up at
//     that rate);
//   - sustained sending: the highest of a ladder of rates with delivery p99 <= 50 ms (the median
//     of a step's runs) and nothing lost;
//   - the memory of an idle server after a little use and 30 s quiet;
//   - fetch (GET /messages, 100 before the newest, three narrows) and search latencies;
//   - what each idle long-polling client costs the server.
// Then the same on PostgreSQL with Redis and two processes (skipped when either is unreachable).
//
// Env: USERS, STREAMS, MESSAGES (the organization; smaller ones build in seconds), PG_URL
// (postgres://root@127.0.0.1:5432/test), REDIS (redis://127.0.0.1:6379), ONLY=sqlite|postgres,
// SECONDS (a sending run, default 5), STEP_RUNS (runs a step, default 3), WARMUP_SECONDS (default
// 25), IDLE_CLIENTS (default 1000), QUIET_SECONDS (default 30).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { compiledIsCurrent } from '../bin/compiled.js';
import { apiClient, type Call } from './_client.ts';
import { BENCH_RATE_LIMITS } from './_limits.ts';
import { generateOrganization, sizeFromEnv, type Organization } from './generate.ts';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const PG_URL = process.env.PG_URL ?? 'postgres://root@127.0.0.1:5432/test';
const REDIS = process.env.REDIS ?? 'redis://127.0.0.1:6379';
const STEP_SECONDS = Number(process.env.SECONDS ?? 5);
/** Runs of each step of the sustained ladder: the median's delivery p99 decides. */
const STEP_RUNS = Number(process.env.STEP_RUNS ?? 3);
const WARMUP_SECONDS = Number(process.env.WARMUP_SECONDS ?? 25);
const IDLE_CLIENTS = Number(process.env.IDLE_CLIENTS ?? 1000);
const QUIET_SECONDS = Number(process.env.QUIET_SECONDS ?? 30);
const LADDER = [300, 500, 750, 1000, 1250, 1500, 2000];

const log = (s: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;
const median = (xs: number[]) => quantile(xs, 0.5);

// ---------------------------------------------------------------------------------------------
// Processes: Parley's and the bare server's, with their CPU time and memory read from /proc.

interface Deployment {
  name: string;
  /** …/api/v1 of each process. */
  bases: string[];
  children: ChildProcess[];
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** CPU seconds (user + system) a process has used. */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

async function waitListening(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; ; i++) {
    if (await fetch(url).then((r) => r.status < 500, () => false)) return;
    if (child.exitCode !== null || i > 3000) throw new Error(`${url} did not start`);
    await sleep(100);
  }
}

async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null) return resolve();
          c.once('exit', () => resolve());
          c.kill('SIGTERM');
        }),
    ),
  );
}

/** `parley serve` processes on one database (a copy of the organization's). */
async function startParley(name: string, processes: number, env: Record<string, string>, dataDir: string): Promise<Deployment> {
  const children: ChildProcess[] = [];
  const bases: string[] = [];
  for (let i = 0; i < processes; i++) {
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(root, 'bin', 'parley.js'), 'serve', '--host', '127.0.0.1', '--port', String(port), '--data-dir', dataDir], {
      env: { ...process.env, ...BENCH_RATE_LIMITS, LOG_LEVEL: 'warn', EXTERNAL_HOST: 'localhost', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    await waitListening(`http://127.0.0.1:${port}/api/v1/server_settings`, child);
    bases.push(`http://127.0.0.1:${port}/api/v1`);
  }
  return { name, bases, children, stop: () => stopAll(children) };
}

// The bare server: node:http answering every request with a small JSON body, no framework,
// no authentication, no database. In plain JavaScript, so nothing else is loaded in it.
const BARE = `
const http = require('node:http');
const body = JSON.stringify({ result: 'success', msg: '', user_id: 8, email: 'owner@example.com', full_name: 'Owner', id: 1 });
http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
}).listen(Number(process.argv[1]), '127.0.0.1');
`;

async function startBare(processes: number): Promise<Deployment> {
  const children: ChildProcess[] = [];
  const bases: string[] = [];
  for (let i = 0; i < processes; i++) {
    const port = await freePort();
    const child = spawn(process.execPath, ['-e', BARE, String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
    children.push(child);
    await waitListening(`http://127.0.0.1:${port}/`, child);
    bases.push(`http://127.0.0.1:${port}/api/v1`);
  }
  return { name: 'bare node:http', bases, children, stop: () => stopAll(children) };
}

const pids = (d: Deployment) => d.children.map((c) => c.pid!);
const totalCpu = (d: Deployment) => pids(d).reduce((a, p) => a + cpuSeconds(p), 0);

// ---------------------------------------------------------------------------------------------
// Clients.

interface Clients {
  calls: Call[];
  agents: http.Agent[];
  close(): void;
}

function clientsFor(d: Deployment): Clients {
  const made = d.bases.map((b) => apiClient(b));
  return { calls: made.map((m) => m.call), agents: made.map((m) => m.agent), close: () => made.forEach((m) => m.agent.destroy()) };
}

async function apiKey(call: Call, email: string, password: string): Promise<string> {
  const r = await call('POST', '/fetch_api_key', '', { username: email, password });
  if (r.status !== 200) throw new Error(`fetch_api_key ${email}: ${JSON.stringify(r.body)}`);
  return `${email}:${String(r.body.api_key)}`;
}

/** The 50-subscriber stream's subscribers, with API keys. */
async function fiftySubscribers(call: Call, org: Organization, ownerAuth: string): Promise<string[]> {
  const r = await call('GET', `/streams/${org.fifty.id}/members`, ownerAuth);
  if (r.status !== 200) throw new Error(`members: ${JSON.stringify(r.body)}`);
  const ids = new Set(r.body.subscribers as number[]);
  const emails = org.users.filter((u) => ids.has(u.id)).map((u) => u.email);
  const auths: string[] = [];
  for (const email of emails) auths.push(await apiKey(call, email, org.password));
  return auths;
}

// ---------------------------------------------------------------------------------------------
// Measurements.

/** GET /users/me, CONCURRENCY at a time, in rounds interleaved between the two deployments. */
async function usersMe(parley: Deployment, bare: Deployment, auth: string): Promise<{ parley: { rate: number; cpuUs: number }; bare: { rate: number; cpuUs: number } }> {
  const REQUESTS = 3000;
  const CONCURRENCY = 8;
  const results = new Map<Deployment, { rate: number[]; cpu: number[] }>([
    [parley, { rate: [], cpu: [] }],
    [bare, { rate: [], cpu: [] }],
  ]);
  const round = async (d: Deployment, n: number) => {
    const c = clientsFor(d);
    let left = n;
    let k = 0;
    const worker = async () => {
      while (left-- > 0) {
        const call = c.calls[k++ % c.calls.length]!;
        const r = await call('GET', '/users/me', auth);
        if (r.status !== 200) throw new Error(`${d.name} /users/me: ${r.status}`);
      }
    };
    const cpu0 = totalCpu(d);
    const t0 = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - t0) / 1000;
    const cpu = totalCpu(d) - cpu0;
    c.close();
    return { rate: n / seconds, cpuUs: (cpu / n) * 1e6 };
  };
  for (const d of [parley, bare]) await round(d, 1000); // warm-up
  for (let r = 0; r < 5; r++) {
    for (const d of r % 2 ? [bare, parley] : [parley, bare]) {
      const x = await round(d, REQUESTS);
      results.get(d)!.rate.push(x.rate);
      results.get(d)!.cpu.push(x.cpuUs);
    }
  }
  const of = (d: Deployment) => ({ rate: median(results.get(d)!.rate), cpuUs: median(results.get(d)!.cpu) });
  return { parley: of(parley), bare: of(bare) };
}

interface SendRun {
  target: number;
  achieved: number;
  sendP50: number;
  sendP99: number;
  deliveryP50: number;
  deliveryP99: number;
  lost: number;
  failedSends: number;
}

/**
 * The sender posts `rate` messages a second for `seconds` to the 50-subscriber stream (from
 * each process in turn); every subscriber long-polls (spread over the processes).
 */
async function sendRun(d: Deployment, stream: number, sender: string, pollers: string[], rate: number, seconds: number, tag: string): Promise<SendRun> {
  const c = clientsFor(d);
  const sentAt = new Map<string, number>();
  const deliveries: number[] = [];
  let delivered = 0;
  let running = true;
  const pattern = new RegExp(`${tag}n(\\d+)x`, 'g');
  const queues = await Promise.all(
    pollers.map(async (who, i) => {
      const r = await c.calls[i % c.calls.length]!('POST', '/register', who, { event_types: ['message'], fetch_event_types: [] });
      if (r.status !== 200) throw new Error(`register: ${JSON.stringify(r.body)}`);
      return { who, base: d.bases[i % d.bases.length]!, agent: c.agents[i % c.agents.length]!, queue: String(r.body.queue_id), last: Number(r.body.last_event_id) };
    }),
  );
  const polls = queues.map(async (q) => {
    while (running) {
      const raw = await rawGet(q.agent, `${q.base}/events?queue_id=${encodeURIComponent(q.queue)}&last_event_id=${q.last}`, q.who);
      const now = performance.now();
      const events = (JSON.parse(raw) as { events: { id: number; type: string; message?: { content: string } }[] }).events;
      for (const e of events) {
        q.last = Math.max(q.last, e.id);
        if (e.type !== 'message' || !e.message) continue;
        for (const m of e.message.content.matchAll(pattern)) {
          const t = sentAt.get(m[1]!);
          if (t === undefined) continue;
          deliveries.push(now - t);
          delivered++;
        }
      }
    }
  });
  await sleep(300);
  const sendTimes: number[] = [];
  let failedSends = 0;
  const total = Math.round(rate * seconds);
  const start = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    const key = String(i);
    const t0 = performance.now();
    sentAt.set(key, t0);
    sends.push(
      c.calls[i % c.calls.length]!('POST', '/messages', sender, { type: 'stream', to: stream, topic: 'standard bench', content: `${tag}n${key}x` }).then((r) => {
        if (r.status !== 200) failedSends++;
        sendTimes.push(performance.now() - t0);
      }),
    );
  }
  await Promise.all(sends);
  const achieved = total / ((performance.now() - start) / 1000);
  // The last deliveries, then one more message ends every poll.
  for (let i = 0; i < 50 && delivered < total * pollers.length; i++) await sleep(100);
  running = false;
  await c.calls[0]!('POST', '/messages', sender, { type: 'stream', to: stream, topic: 'standard bench', content: 'end of run' });
  await Promise.all(polls);
  // The clients go away as a client does when it closes: their queues with them. (Left behind,
  // each run's 50 queues took every later run's events until they expired, unread: by the 500/s
  // step 150 of them, whose growing backlog the garbage collector walked at every turn.)
  await Promise.all(queues.map((q, i) => c.calls[i % c.calls.length]!('DELETE', '/events', q.who, { queue_id: q.queue })));
  c.close();
  return {
    target: rate,
    achieved,
    sendP50: quantile(sendTimes, 0.5),
    sendP99: quantile(sendTimes, 0.99),
    deliveryP50: quantile(deliveries, 0.5),
    deliveryP99: quantile(deliveries, 0.99),
    lost: total * pollers.length - delivered,
    failedSends,
  };
}

function rawGet(agent: http.Agent, url: string, auth: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { authorization: `Basic ${Buffer.from(auth).toString('base64')}` } }, (res) => {
        res.setEncoding('utf8');
        let s = '';
        res.on('data', (c: string) => (s += c));
        res.on('end', () => (res.statusCode === 200 ? resolve(s) : reject(new Error(`GET /events: ${res.statusCode} ${s}`))));
      })
      .on('error', reject);
  });
}

/** POST latency of the bare server at 200/s (what the loopback and the client cost). */
async function bareSends(bare: Deployment, seconds: number): Promise<{ p50: number; p99: number }> {
  const c = clientsFor(bare);
  const times: number[] = [];
  const start = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < 200 * seconds; i++) {
    const wait = start + i * 5 - performance.now();
    if (wait > 0) await sleep(wait);
    const t0 = performance.now();
    sends.push(c.calls[i % c.calls.length]!('POST', '/messages', 'x:y', { type: 'stream', to: 1, topic: 't', content: `m${i}` }).then(() => void times.push(performance.now() - t0)));
  }
  await Promise.all(sends);
  c.close();
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
}

/** Median and p95 of each read, as the organization's reader. */
async function reads(d: Deployment, org: Organization, reader: string): Promise<Record<string, { p50: number; p95: number }>> {
  const c = clientsFor(d);
  const narrow = (n: object[]) => JSON.stringify(n);
  const streams = await c.calls[0]!('GET', '/users/me/subscriptions', reader);
  const inStream = (streams.body.subscriptions as { stream_id: number; name: string }[]).find((s) => s.stream_id !== org.everyone.id) ?? { stream_id: org.everyone.id, name: org.everyone.name };
  const recent = await c.calls[0]!('GET', '/messages', reader, { anchor: 'newest', num_before: 1, num_after: 0, narrow: narrow([{ operator: 'stream', operand: inStream.stream_id }]) });
  const topic = String((recent.body.messages as { subject: string }[])[0]?.subject ?? 'general');
  const cases: [string, Record<string, unknown>][] = [
    ['fetch: all messages, 100 before the newest', { anchor: 'newest', num_before: 100, num_after: 0, narrow: '[]' }],
    ['fetch: one stream', { anchor: 'newest', num_before: 100, num_after: 0, narrow: narrow([{ operator: 'stream', operand: inStream.stream_id }]) }],
    ['fetch: one topic', { anchor: 'newest', num_before: 100, num_after: 0, narrow: narrow([{ operator: 'stream', operand: inStream.stream_id }, { operator: 'topic', operand: topic }]) }],
    ['search: a word', { anchor: 'newest', num_before: 100, num_after: 0, narrow: narrow([{ operator: 'search', operand: 'release' }]) }],
    ['search: a word in one stream', { anchor: 'newest', num_before: 100, num_after: 0, narrow: narrow([{ operator: 'stream', operand: inStream.stream_id }, { operator: 'search', operand: 'meeting' }]) }],
  ];
  const out: Record<string, { p50: number; p95: number }> = {};
  for (const [name, params] of cases) {
    const times: number[] = [];
    for (let i = 0; i < 33; i++) {
      const t0 = performance.now();
      const r = await c.calls[i % c.calls.length]!('GET', '/messages', reader, params);
      if (r.status !== 200) throw new Error(`${name}: ${JSON.stringify(r.body)}`);
      if (i >= 3) times.push(performance.now() - t0);
    }
    out[name] = { p50: quantile(times, 0.5), p95: quantile(times, 0.95) };
  }
  c.close();
  return out;
}

/** RSS added per idle long-polling client, held by a process of their own. */
async function idleClients(d: Deployment, users: string[]): Promise<number> {
  const before = pids(d).reduce((a, p) => a + rssMb(p), 0);
  const holder = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench', '_idle-clients.ts')], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  try {
    // Spread over the processes: the holder talks to one base, so hold a share on each.
    await new Promise<void>((resolve, reject) => {
      holder.once('message', () => resolve());
      holder.once('exit', (code) => reject(new Error(`the idle clients' process exited (${String(code)})`)));
      holder.send({ base: d.bases[0], users, count: IDLE_CLIENTS });
    });
    await sleep(2000);
    const after = pids(d).reduce((a, p) => a + rssMb(p), 0);
    // Their queues go before the measurements that follow.
    await new Promise<void>((resolve) => {
      holder.once('message', () => resolve());
      holder.send('release');
    });
    return ((after - before) * 1024) / IDLE_CLIENTS;
  } finally {
    holder.kill();
  }
}

// ---------------------------------------------------------------------------------------------
// One deployment's table.

interface Row {
  figure: string;
  goal: string;
  value: string;
  bare: string;
  ok?: boolean;
}

async function measure(name: string, org: Organization, start: () => Promise<Deployment>, processes: number): Promise<Row[]> {
  const rows: Row[] = [];
  const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;

  // 1. Idle memory: fresh processes, a little use, then quiet.
  log(`${name}: idle memory (a little use, then ${QUIET_SECONDS} s quiet)`);
  const d = await start();
  const bare = await startBare(processes);
  let c = clientsFor(d);
  const owner = await apiKey(c.calls[0]!, org.owner, org.password);
  const reader = await apiKey(c.calls[0]!, org.reader.email, org.password);
  for (const call of c.calls) {
    const queue = (await call('POST', '/register', reader, {})).body.queue_id as string;
    await call('GET', '/messages', reader, { anchor: 'newest', num_before: 50, num_after: 0, narrow: '[]' });
    for (let i = 0; i < 10; i++) await call('POST', '/messages', owner, { type: 'stream', to: org.fifty.id, topic: 'warm', content: `a little use ${i}` });
    await call('GET', '/users/me', reader);
    // The reader's page closes, and its queue goes with it. (Left, never polled, it took every
    // message of the runs below until the end: at 300 sends a second, a send's p99 was 13-24
    // ms with it and 4-8 ms without, and the server's CPU per message a third more.)
    await call('DELETE', '/events', reader, { queue_id: queue });
  }
  c.close();
  const bc = clientsFor(bare);
  for (const call of bc.calls) for (let i = 0; i < 20; i++) await call('GET', '/users/me', 'x:y');
  bc.close();
  await sleep(QUIET_SECONDS * 1000);
  const idleRss = Math.max(...pids(d).map(rssMb));
  const bareRss = Math.max(...pids(bare).map(rssMb));
  rows.push({ figure: `idle server memory, RSS${processes > 1 ? ' (largest process)' : ''}`, goal: '<= 100 MB', value: `${idleRss.toFixed(0)} MB`, bare: `${bareRss.toFixed(0)} MB`, ok: idleRss <= 100 });

  // 2. Idle long-polls, on the same quiet server: measured after the sending runs, the memory
  // those freed meanwhile made the figure negative.
  c = clientsFor(d);
  const subscribers = await fiftySubscribers(c.calls[0]!, org, owner);
  c.close();
  if (IDLE_CLIENTS > 0) {
    log(`${name}: ${IDLE_CLIENTS} idle long-polling clients`);
    const kb = await idleClients(d, subscribers);
    rows.push({ figure: 'memory per idle long-polling client (RSS)', goal: '', value: `${kb.toFixed(1)} KB`, bare: '' });
  }

  // 3. GET /users/me.
  log(`${name}: GET /users/me`);
  const me = await usersMe(d, bare, reader);
  const share = me.parley.rate / me.bare.rate;
  rows.push({ figure: 'GET /users/me throughput, share of bare', goal: '>= 60%', value: `${(share * 100).toFixed(0)}% (${me.parley.rate.toFixed(0)}/s)`, bare: `${me.bare.rate.toFixed(0)}/s`, ok: share >= 0.6 });
  rows.push({ figure: 'GET /users/me server CPU per request', goal: '', value: `${me.parley.cpuUs.toFixed(0)} µs`, bare: `${me.bare.cpuUs.toFixed(0)} µs` });

  // 4. Sending at 200/s to 50 long-polling subscribers.
  const sender = subscribers[0]!;
  log(`${name}: POST /messages at 200/s to ${subscribers.length} long-polling subscribers`);
  // Warm-up at the measured rate, past what a server in service at that rate has long passed:
  // on SQLite the log file grows to its working size (64 MB: some 6,000 sends here) and is then
  // copied whole into the database file once. Flushes that extended the file took up to 150 ms
  // here, and that first whole copy held writes for up to 200 ms (checkpoint.ts). (A warm-up at
  // 500/s left the disk writing back the database file into the 200/s figures.)
  log(`${name}: warm-up, ${WARMUP_SECONDS} s at 200/s`);
  await sendRun(d, org.fifty.id, sender, subscribers, 200, WARMUP_SECONDS, 'w');
  const at200 = await sendRun(d, org.fifty.id, sender, subscribers, 200, 10, 'a');
  const bareSend = await bareSends(bare, 5);
  rows.push({ figure: `POST /messages at 200/s, ${subscribers.length} pollers: p50`, goal: '<= 2 ms', value: fmt(at200.sendP50), bare: fmt(bareSend.p50), ok: at200.sendP50 <= 2 });
  rows.push({ figure: 'POST /messages at 200/s: p99', goal: '<= 10 ms', value: fmt(at200.sendP99), bare: fmt(bareSend.p99), ok: at200.sendP99 <= 10 });
  rows.push({ figure: 'send to delivery at 200/s: p50 / p99', goal: '', value: `${fmt(at200.deliveryP50)} / ${fmt(at200.deliveryP99)}`, bare: '' });
  rows.push({ figure: 'events lost at 200/s', goal: '0', value: `${at200.lost} of ${Math.round(200 * 10) * subscribers.length}`, bare: '', ok: at200.lost === 0 && at200.failedSends === 0 });

  // 5. Sustained: up the ladder while delivery p99 <= 50 ms, nothing lost, the rate kept.
  let best: SendRun | null = null;
  let failed: SendRun | null = null;
  for (const rate of LADDER) {
    log(`${name}: sustained sending at ${rate}/s, ${STEP_RUNS} runs`);
    // Several runs a step, as one run's p99 moved by half between runs here (a stall of the machine).
    const runs: SendRun[] = [];
    for (let i = 0; i < STEP_RUNS; i++) {
      const x = await sendRun(d, org.fifty.id, sender, subscribers, rate, STEP_SECONDS, `s${rate}r${i}`);
      log(`  achieved ${x.achieved.toFixed(0)}/s, send p99 ${fmt(x.sendP99)}, delivery p99 ${fmt(x.deliveryP99)}, lost ${x.lost}`);
      runs.push(x);
    }
    // Its latencies are the median run's; what was lost or failed, and the rate kept, are every run's.
    const median = [...runs].sort((a, b) => a.deliveryP99 - b.deliveryP99)[Math.floor(runs.length / 2)]!;
    const r: SendRun = {
      ...median,
      lost: runs.reduce((n, x) => n + x.lost, 0),
      failedSends: runs.reduce((n, x) => n + x.failedSends, 0),
      achieved: Math.min(...runs.map((x) => x.achieved)),
    };
    if (r.deliveryP99 <= 50 && r.lost === 0 && r.failedSends === 0 && r.achieved >= rate * 0.95) best = r;
    else {
      failed = r;
      break;
    }
  }
  rows.push({
    figure: 'sustained sending, delivery p99 <= 50 ms, nothing lost',
    goal: '>= 1,000/s',
    value: best ? `${best.target}/s (p99 ${fmt(best.deliveryP99)})` : `< ${LADDER[0]}/s`,
    bare: failed ? `next step ${failed.target}/s: p99 ${fmt(failed.deliveryP99)}, ${failed.achieved.toFixed(0)}/s, lost ${failed.lost}` : '',
    ok: (best?.target ?? 0) >= 1000,
  });

  // 6. Reads.
  log(`${name}: fetch and search`);
  const r = await reads(d, org, reader);
  for (const [figure, t] of Object.entries(r)) rows.push({ figure: `${figure}: p50 / p95`, goal: '', value: `${fmt(t.p50)} / ${fmt(t.p95)}`, bare: '' });

  await bare.stop();
  await d.stop();
  return rows;
}

/**
 * What the machine itself costs, measured before any server starts: a system call (an fstat from
 * Node) and a flush of the disk (fdatasync after writing 24 KB, about what a send adds to the
 * log, 400 times 5 ms apart, in the folder the databases are copied to). These differ several
 * times over between machines (a virtual machine whose system calls cost about 3 µs, against well
 * under 1 on others), every figure of the table moves with them, and no send is answered sooner
 * than its flush: a line under each table's title gives them, to compare runs on other machines.
 */
async function machineCosts(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-machine-'));
  const fd = fs.openSync(path.join(dir, 'flushes'), 'w');
  try {
    const calls = 100_000;
    let t0 = performance.now();
    for (let i = 0; i < calls; i++) fs.fstatSync(fd);
    const callUs = ((performance.now() - t0) * 1000) / calls;
    const chunk = Buffer.alloc(24 * 1024, 1);
    const flushes: number[] = [];
    for (let i = 0; i < 400; i++) {
      fs.writeSync(fd, chunk, 0, chunk.length, (i % 64) * chunk.length);
      t0 = performance.now();
      await new Promise<void>((resolve, reject) => fs.fdatasync(fd, (err) => (err ? reject(err) : resolve())));
      flushes.push(performance.now() - t0);
      await sleep(5);
    }
    return `machine: a system call (fstat from Node) ${callUs.toFixed(1)} µs; a disk flush (fdatasync of 24 KB written) p50 ${quantile(flushes, 0.5).toFixed(2)} ms, p99 ${quantile(flushes, 0.99).toFixed(2)} ms`;
  } finally {
    fs.closeSync(fd);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Copies the organization's database and flushes the copy: otherwise the write-back of its
 * gigabytes runs under the sends measured next, whose answers wait for flushes of their own.
 */
function copyFlushed(from: string, to: string): void {
  fs.copyFileSync(from, to);
  for (const file of [to, path.dirname(to)]) {
    const fd = fs.openSync(file, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }
}

function print(title: string, machine: string, rows: Row[]): void {
  const w = [Math.max(6, ...rows.map((r) => r.figure.length)), Math.max(4, ...rows.map((r) => r.goal.length)), Math.max(8, ...rows.map((r) => r.value.length + 3))];
  console.log(`\n${title}`);
  console.log(machine);
  console.log(`| ${'figure'.padEnd(w[0]!)} | ${'goal'.padEnd(w[1]!)} | ${'measured'.padEnd(w[2]!)} | bare node:http, same run`);
  console.log(`|${'-'.repeat(w[0]! + 2)}|${'-'.repeat(w[1]! + 2)}|${'-'.repeat(w[2]! + 2)}|---`);
  for (const r of rows) {
    const mark = r.ok === undefined ? '' : r.ok ? ' ok' : ' !!';
    console.log(`| ${r.figure.padEnd(w[0]!)} | ${r.goal.padEnd(w[1]!)} | ${(r.value + mark).padEnd(w[2]!)} | ${r.bare}`);
  }
}

async function reachable(url: string, defaultPort: number): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect(Number(u.port || defaultPort), u.hostname, () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

async function main(): Promise<void> {
  // What `npm start` runs: the compiled server. A checkout edited since its build is built again.
  if (!compiledIsCurrent(root)) {
    log('dist/ is older than src/: npm run build');
    const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (b.status !== 0 || !compiledIsCurrent(root)) throw new Error('npm run build failed');
  }
  const size = sizeFromEnv();
  const only = process.env.ONLY;
  log('the machine: a system call, a disk flush');
  const machine = await machineCosts();
  const header = () => `${size.users} users, ${size.streams} streams, ${size.messages.toLocaleString('en')} messages; ${os.cpus().length} cores; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`;

  if (only !== 'postgres') {
    log('the SQLite organization (bench/generate.ts; cached)');
    const org = await generateOrganization(size, null);
    const start = async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-std-'));
      copyFlushed(path.join(org.dataDir!, 'parley.db'), path.join(dataDir, 'parley.db'));
      const d = await startParley('parley', 1, { DATABASE_URL: '', REDIS_URL: '' }, dataDir);
      const stop = d.stop;
      return { ...d, stop: async () => (await stop(), fs.rmSync(dataDir, { recursive: true, force: true })) };
    };
    const rows = await measure('SQLite', org, start, 1);
    print(`Parley on SQLite, one process (${header()})`, machine, rows);
  }

  if (only !== 'sqlite') {
    if (!(await reachable(PG_URL, 5432)) || !(await reachable(REDIS, 6379))) {
      console.log('\nPostgreSQL + Redis: skipped (PostgreSQL or Redis is not reachable)');
      return;
    }
    log('the PostgreSQL organization (bench/generate.ts; cached)');
    const org = await generateOrganization(size, PG_URL);
    const start = async () => {
      // A copy of the organization's database for each run: runs leave the cached build alone.
      const source = new URL(org.databaseUrl!);
      const copy = new URL(org.databaseUrl!);
      copy.pathname = `${source.pathname}_run`;
      const admin = new URL(org.databaseUrl!);
      admin.pathname = '/postgres';
      const a = new pg.Client({ connectionString: admin.toString() });
      await a.connect();
      await a.query(`drop database if exists "${copy.pathname.slice(1)}" with (force)`);
      await a.query(`create database "${copy.pathname.slice(1)}" template "${source.pathname.slice(1)}"`);
      // The copy's pages go to disk now, not under the sends measured next.
      await a.query('checkpoint');
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-std-'));
      const d = await startParley('parley', 2, { DATABASE_URL: copy.toString(), REDIS_URL: REDIS, REDIS_PREFIX: `bench${process.pid}` }, dataDir);
      const stop = d.stop;
      return {
        ...d,
        stop: async () => {
          await stop();
          await a.query(`drop database if exists "${copy.pathname.slice(1)}" with (force)`);
          await a.end();
          fs.rmSync(dataDir, { recursive: true, force: true });
        },
      };
    };
    const rows = await measure('PostgreSQL + Redis', org, start, 2);
    print(`Parley on PostgreSQL with Redis, two processes (${header()})`, machine, rows);
  }
}

await main();
