// What the rate limiter costs a request.
// 1. The limiter's own call (memory store), in this process: nanoseconds per request counted.
// 2. Over HTTP: one server process per mode (limits off; counted in memory; counted in Redis),
//    CONNECTIONS keep-alive clients sending GET /users/me as fast as answers come, for SECONDS,
//    in ROUNDS that alternate the modes (a shared machine drifts); requests per second and mean
//    latency per mode (median of the rounds).
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
import { createLogger } from '../src/log.ts';
import { BENCH_RATE_LIMITS } from './_limits.ts';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const SECONDS = Number(process.env.SECONDS ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const REDIS = process.env.REDIS ?? 'redis://127.0.0.1:6379';
const bin = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'parley.js');

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
  const t0 = process.hrtime.bigint();
  run(n);
  const ns = Number(process.hrtime.bigint() - t0) / n;
  console.log(`limiter call (memory, 1000 users, headers set on a stub reply): ${ns.toFixed(0)} ns per request`);
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
async function load(s: Running, seconds: number): Promise<{ rps: number; meanUs: number }> {
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
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (Date.now() < end) await one();
  }));
  agent.destroy();
  return { rps: count / ((Date.now() - started) / 1000), meanUs: Number(totalNs / BigInt(Math.max(1, count))) / 1000 };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

microbench();
const running = new Map<Mode, Running>();
try {
  for (const mode of MODES) running.set(mode, await startMode(mode));
  for (const mode of MODES) await load(running.get(mode)!, 1);
  const results = new Map<Mode, { rps: number; meanUs: number }[]>(MODES.map((m) => [m, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of MODES) {
      const r = await load(running.get(mode)!, SECONDS);
      results.get(mode)!.push(r);
      console.log(`round ${round + 1} ${mode.name.padEnd(10)} ${r.rps.toFixed(0).padStart(6)} req/s, mean ${r.meanUs.toFixed(0)} µs`);
    }
  }
  for (const mode of MODES) {
    const rs = results.get(mode)!;
    console.log(`${mode.name.padEnd(10)} median ${median(rs.map((r) => r.rps)).toFixed(0).padStart(6)} req/s, mean latency ${median(rs.map((r) => r.meanUs)).toFixed(0)} µs (GET /users/me, ${CONNECTIONS} connections)`);
  }
} finally {
  for (const r of running.values()) r.child.kill('SIGTERM');
}
