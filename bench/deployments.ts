// The same send-and-deliver workload on the two deployments: one `parley serve` process on
// SQLite, and two processes on PostgreSQL sharing events through Redis. Each deployment gets
// POLLERS users long-polling (spread over its processes) and one sender posting RATE messages a
// second for SECONDS seconds to a stream they are all in (alternating between processes).
// Reports sends/s, events delivered/s and send-to-delivery latency (median, p99).
//
// Run: npx tsx bench/deployments.ts   (env: POLLERS=20 RATE=50 SECONDS=10,
//      PG_URL=postgres://root@127.0.0.1:5432/test, REDIS=redis://127.0.0.1:6379; the
//      PostgreSQL part is skipped when PostgreSQL or Redis cannot be reached)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';
import pg from 'pg';
import { BENCH_RATE_LIMITS } from './_limits.ts';

const POLLERS = Number(process.env.POLLERS ?? 20);
const RATE = Number(process.env.RATE ?? 50);
const SECONDS = Number(process.env.SECONDS ?? 10);
const PG_URL = process.env.PG_URL ?? 'postgres://root@127.0.0.1:5432/test';
const REDIS = process.env.REDIS ?? 'redis://127.0.0.1:6379';
const bin = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'parley.js');

interface Account {
  email: string;
  key: string;
}

const auth = (a: Account) => 'Basic ' + Buffer.from(`${a.email}:${a.key}`).toString('base64');

async function call(base: string, as: Account, method: string, p: string, params: Record<string, unknown> = {}): Promise<any> {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  const url = method === 'GET' ? `${base}/api/v1${p}?${form}` : `${base}/api/v1${p}`;
  const res = await fetch(url, {
    method,
    headers: { authorization: auth(as), ...(method === 'GET' ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
    body: method === 'GET' ? undefined : form,
  });
  const body = (await res.json()) as any;
  if (body.result !== 'success') throw new Error(`${method} ${p}: ${JSON.stringify(body)}`);
  return body;
}

function run(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`parley ${args[0]} exited ${code}`))));
  });
}

async function startProcess(port: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', String(port)], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: 'inherit' });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/v1/server_settings`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`server on port ${port} did not start`);
}

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

async function workload(name: string, bases: string[], owner: Account): Promise<void> {
  const base0 = bases[0]!;
  // Users, all in one stream.
  const users: Account[] = [];
  for (let i = 0; i < POLLERS; i++) {
    const email = `poller${i}@bench.test`;
    await call(base0, owner, 'POST', '/users', { email, password: 'bench-password', full_name: `Poller ${i}` });
    const { api_key } = await call(base0, owner, 'POST', '/fetch_api_key', { username: email, password: 'bench-password' });
    users.push({ email, key: api_key as string });
  }
  await call(base0, owner, 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'bench' }], principals: users.map((u) => u.email) });

  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let delivered = 0;
  let stop = false;
  // Every poller has its queue before the first message is sent.
  const queues = await Promise.all(users.map((u, i) => call(bases[i % bases.length]!, u, 'POST', '/register', { event_types: ['message'] })));
  const pollers = users.map(async (u, i) => {
    const base = bases[i % bases.length]!;
    const q = queues[i]!;
    let last = q.last_event_id as number;
    while (!stop) {
      const r = await call(base, u, 'GET', '/events', { queue_id: q.queue_id, last_event_id: last });
      const now = performance.now();
      for (const e of r.events as any[]) {
        last = Math.max(last, e.id);
        if (e.type !== 'message') continue;
        const t = sentAt.get(e.message.content);
        if (t !== undefined) {
          latencies.push(now - t);
          delivered++;
        }
      }
    }
  });

  const total = RATE * SECONDS;
  const started = performance.now();
  const sends: Promise<unknown>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const content = `m${i}-${randomBytes(3).toString('hex')}`;
    sentAt.set(content, performance.now());
    sends.push(call(bases[i % bases.length]!, owner, 'POST', '/messages', { type: 'stream', to: 'bench', topic: 't', content }));
  }
  await Promise.all(sends);
  const sendSeconds = (performance.now() - started) / 1000;
  // Let the last deliveries arrive, then end the polls with one more message.
  await new Promise((r) => setTimeout(r, 1000));
  stop = true;
  await call(base0, owner, 'POST', '/messages', { type: 'stream', to: 'bench', topic: 't', content: 'stop' });
  await Promise.all(pollers);
  console.log(
    `${name}: ${total} messages in ${sendSeconds.toFixed(1)} s (${(total / sendSeconds).toFixed(0)} sends/s), ` +
      `${delivered}/${total * POLLERS} deliveries (${(delivered / sendSeconds).toFixed(0)} events/s), ` +
      `latency median ${quantile(latencies, 0.5).toFixed(1)} ms, p99 ${quantile(latencies, 0.99).toFixed(1)} ms`,
  );
}

async function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, host, () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

async function sqliteDeployment(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-deploy-'));
  const env = { ...BENCH_RATE_LIMITS, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' };
  const r = JSON.parse(await run(['create-realm', '--name', 'Bench', '--owner-email', 'owner@bench.test', '--owner-name', 'Owner', '--json'], env)) as { email: string; api_key: string };
  const port = await freePort();
  const child = await startProcess(port, env);
  try {
    await workload('SQLite, 1 process', [`http://127.0.0.1:${port}`], { email: r.email, key: r.api_key });
  } finally {
    child.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgresDeployment(): Promise<void> {
  const pgUrl = new URL(PG_URL);
  if (!(await reachable(pgUrl.hostname, Number(pgUrl.port || 5432))) || !(await reachable(new URL(REDIS).hostname, Number(new URL(REDIS).port || 6379)))) {
    console.log('PostgreSQL + Redis, 2 processes: skipped (PostgreSQL or Redis not reachable)');
    return;
  }
  const name = `parley_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const dbUrl = new URL(PG_URL);
  dbUrl.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-deploy-'));
  const env = { ...BENCH_RATE_LIMITS, DATA_DIR: dataDir, DATABASE_URL: dbUrl.toString(), REDIS_URL: REDIS, REDIS_PREFIX: name };
  const children: ChildProcess[] = [];
  try {
    const r = JSON.parse(await run(['create-realm', '--name', 'Bench', '--owner-email', 'owner@bench.test', '--owner-name', 'Owner', '--json'], env)) as { email: string; api_key: string };
    const ports = [await freePort(), await freePort()];
    for (const port of ports) children.push(await startProcess(port, env));
    await workload('PostgreSQL + Redis, 2 processes', ports.map((p) => `http://127.0.0.1:${p}`), { email: r.email, key: r.api_key });
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`send-and-deliver: ${POLLERS} long-polling users, ${RATE} messages/s for ${SECONDS} s`);
await sqliteDeployment();
await postgresDeployment();
