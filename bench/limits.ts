// What the rate limiter costs a request.
// 1. The limiter's own call (memory store), in this process: nanoseconds per request counted.
// 2. Over HTTP: one server process per mode (limits off; counted in memory; counted in Redis),
//    CONNECTIONS keep-alive clients sending GET /users/me as fast as answers come, for SECONDS,
//    in ROUNDS that alternate the modes (a shared machine drifts). Per mode (median of the
//    rounds): the server process's CPU time per request, read from /proc (what a busy machine
//    disturbs least), requests per second and mean latency.
// Run: npx tsx bench/limits.ts   (env: CONNECTIONS=16 SECONDS=5 ROUNDS=3 REDIS=redis://127.0.0.1:6379)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { loadConfig } from '../src/config.ts';
import type { User } from '../src/db/schema.ts';
import { RateLimiter } from '../src/http/rate-limit.ts';
import { RedisStore } from '../src/http/rate-limit-store.ts';
import { createLogger } from '../src/log.ts';
import { BENCH_RATE_LIMITS } from './_limits.ts';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const SECONDS = Number(process.env.SECONDS ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const REDIS = process.env.REDIS ?? 'redis://127.0.0.1:6379';
const bin = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'parley.js');

/** CPU microseconds (user + system) a process has used, from /proc/<pid>/stat. */
function cpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / 100;
}

function microbench(): void {
  const config = loadConfig({}, BENCH_RATE_LIMITS);
  const limiter = RateLimiter.inMemory(config, createLogger('silent'));
  const headers: Record<string, string> = {};
  const reply = { header: (k: string, v: string) => ((headers[k] = v), reply) } as unknown as FastifyReply;
  const request = { ip: '127.0.0.1' } as FastifyRequest;
  const users = Array.from({ length: 1000 }, (_, i) => ({ id: i + 1 }) as User);
  const run = (n: number) => {
    for (let i = 0; i < n; i++) limiter.request(request, reply, users[i % users.length]!, 'api');
  };
  run(200_000);
  const n = 2_000_000;
  const cpu0 = process.cpuUsage();
  run(n);
  const cpu = process.cpuUsage(cpu0);
  const ns = ((cpu.user + cpu.system) * 1000) / n;
  console.log(`limiter call (memory, 1000 users, headers set on a stub reply): ${ns.toFixed(0)} ns of CPU per request`);
}

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });

function cli(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`parley ${args[0]} exited ${code}`))));
  });
}

interface Mode {
  name: string;
  env: Record<string, string>;
}

const OFF = { RATE_LIMIT_API_BY_USER: 'off', RATE_LIMIT_API_BY_ADDRESS: 'off', RATE_LIMIT_AUTH_BY_USERNAME: 'off', RATE_LIMIT_AUTH_BY_ADDRESS: 'off' };
const MODES: Mode[] = [
  { name: 'limits off', env: { ...OFF, REDIS_URL: '' } },
  { name: 'memory', env: { ...BENCH_RATE_LIMITS, REDIS_URL: '' } },
  { name: 'redis', env: { ...BENCH_RATE_LIMITS, REDIS_URL: REDIS, REDIS_PREFIX: `parley-bench-${randomBytes(4).toString('hex')}` } },
];

interface Running {
  child: ChildProcess;
  port: number;
  auth: string;
}

async function startMode(mode: Mode): Promise<Running> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-limits-'));
  const env = { ...mode.env, DATA_DIR: dataDir, DATABASE_URL: '', EXTERNAL_HOST: 'localhost' };
  const r = JSON.parse(await cli(['create-realm', '--name', 'Bench', '--owner-email', 'owner@bench.test', '--owner-name', 'Owner', '--json'], env)) as { email: string; api_key: string };
  const port = await freePort();
  const child = spawn(process.execPath, [bin, 'serve', '--port', String(port)], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: 'inherit' });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/v1/server_settings`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((res) => setTimeout(res, 100));
  }
  return { child, port, auth: 'Basic ' + Buffer.from(`${r.email}:${r.api_key}`).toString('base64') };
}

/** Sends requests on CONNECTIONS connections for `seconds`; requests per second and mean latency. */
async function load(s: Running, seconds: number): Promise<{ rps: number; meanUs: number; cpuUs: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const options = { host: '127.0.0.1', port: s.port, path: '/api/v1/users/me', agent, headers: { host: 'localhost', authorization: s.auth } };
  const end = Date.now() + seconds * 1000;
  let count = 0;
  let totalNs = 0n;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const t0 = process.hrtime.bigint();
      http
        .get(options, (res) => {
          if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
          res.resume();
          res.on('end', () => {
            totalNs += process.hrtime.bigint() - t0;
            count++;
            resolve();
          });
        })
        .on('error', reject);
    });
  const started = Date.now();
  const cpu0 = cpuMicros(s.child.pid!);
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (Date.now() < end) await one();
  }));
  const cpu = cpuMicros(s.child.pid!) - cpu0;
  agent.destroy();
  return { rps: count / ((Date.now() - started) / 1000), meanUs: Number(totalNs / BigInt(Math.max(1, count))) / 1000, cpuUs: cpu / Math.max(1, count) };
}

/** One Redis script call per request: its wall time one at a time, and this process's CPU for it. */
async function redisBench(): Promise<void> {
  const store = new RedisStore(REDIS, `parley-bench-${randomBytes(4).toString('hex')}`);
  await store.connect();
  const rule = { count: 1_000_000_000, seconds: 60 };
  try {
    for (let i = 0; i < 2000; i++) await store.bucket(`u:${i % 1000}`, rule);
    const n = 20_000;
    const cpu0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await store.bucket(`u:${i % 1000}`, rule);
    const wallUs = Number(process.hrtime.bigint() - t0) / 1000 / n;
    const cpu = process.cpuUsage(cpu0);
    console.log(`limiter call (Redis script, one at a time): ${wallUs.toFixed(0)} µs wall, ${((cpu.user + cpu.system) / n).toFixed(1)} µs of this process's CPU per request`);
  } finally {
    await store.close();
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

microbench();
await redisBench();
const running = new Map<Mode, Running>();
try {
  for (const mode of MODES) running.set(mode, await startMode(mode));
  // Warm up: each server's code is compiled before anything is measured.
  for (const mode of MODES) await load(running.get(mode)!, 3);
  const results = new Map<Mode, { rps: number; meanUs: number; cpuUs: number }[]>(MODES.map((m) => [m, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of MODES) {
      const r = await load(running.get(mode)!, SECONDS);
      results.get(mode)!.push(r);
      console.log(`round ${round + 1} ${mode.name.padEnd(10)} ${r.cpuUs.toFixed(1).padStart(6)} µs CPU/request, ${r.rps.toFixed(0).padStart(6)} req/s, mean ${r.meanUs.toFixed(0)} µs`);
    }
  }
  for (const mode of MODES) {
    const rs = results.get(mode)!;
    const cpu = median(rs.map((r) => r.cpuUs)).toFixed(1).padStart(6);
    console.log(`${mode.name.padEnd(10)} median ${cpu} µs server CPU/request, ${median(rs.map((r) => r.rps)).toFixed(0).padStart(6)} req/s, mean latency ${median(rs.map((r) => r.meanUs)).toFixed(0)} µs (GET /users/me, ${CONNECTIONS} connections)`);
  }
} finally {
  for (const r of running.values()) r.child.kill('SIGTERM');
}
