// GET /users/me against a bare node:http server in the same run: server CPU time per request
// (process.cpuUsage of each server process, which a loaded machine disturbs far less than
// throughput) and throughput, in interleaved rounds, medians. With --baseline DIR (a checkout's
// src/), that version runs too, interleaved with this one: an A/B in one run.
// Run: npx tsx bench/users-me.ts [--requests 4000] [--concurrency 8] [--rounds 7] [--baseline DIR]
// With PG_URL (postgres://root@127.0.0.1:5432/test) each Parley runs on a fresh database of that
// PostgreSQL server with Redis (REDIS, default redis://127.0.0.1:6379), as a deployment of
// several processes does. SERVER_NODE_FLAGS adds Node flags to the servers (--cpu-prof).
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiClient } from './_client.ts';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const REQUESTS = Number(args.get('requests') ?? 4000);
const CONCURRENCY = Number(args.get('concurrency') ?? 8);
const ROUNDS = Number(args.get('rounds') ?? 7);
const PATH = args.get('path') ?? '/users/me';
const dir = path.dirname(fileURLToPath(import.meta.url));

interface Server {
  name: string;
  child: ChildProcess;
  url: string;
  auth: string;
  cpu: number[];
  rate: number[];
}

async function start(name: string, kind: string, src: string): Promise<Server> {
  const child = fork(path.join(dir, '_cpu-server.ts'), [kind], { execArgv: ['--import', 'tsx', ...(process.env.SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean)], env: { ...process.env, PARLEY_SRC: src } });
  const ready = await new Promise<{ url: string; auth?: string }>((resolve) => child.once('message', resolve as never));
  return { name, child, url: ready.url, auth: ready.auth ?? 'x:y', cpu: [], rate: [] };
}

const cpuOf = (s: Server) =>
  new Promise<number>((resolve) => {
    s.child.once('message', (m: { user: number; system: number }) => resolve(m.user + m.system));
    s.child.send({ kind: 'cpu' });
  });

async function round(s: Server, n: number, record = true): Promise<void> {
  const { call, agent } = apiClient(s.url);
  let left = n;
  const worker = async () => {
    while (left-- > 0) {
      const r = await call('GET', PATH, s.auth);
      if (r.status !== 200) throw new Error(`${s.name}: ${r.status} ${JSON.stringify(r.body)}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker)); // warm the sockets
  left = n;
  const c0 = await cpuOf(s);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const t1 = performance.now();
  const c1 = await cpuOf(s);
  agent.destroy();
  if (!record) return;
  s.cpu.push((c1 - c0) / n);
  s.rate.push(n / ((t1 - t0) / 1000));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const servers = [await start('bare node:http', 'bare', '')];
servers.push(await start('parley', 'parley', path.join(dir, '../src')));
if (args.get('baseline')) servers.push(await start('parley baseline', 'parley', path.resolve(args.get('baseline')!)));
for (const s of servers) await round(s, 1000, false); // warm-up
const load: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  // A different order each round, so a burst of load elsewhere falls on each in turn.
  const order = r % 2 ? [...servers].reverse() : servers;
  for (const s of order) await round(s, REQUESTS);
  load.push(os.loadavg()[0]!);
}
const bare = servers[0]!;
console.log(`GET ${PATH}: ${ROUNDS} rounds of ${REQUESTS} requests, ${CONCURRENCY} at a time; load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}`);
console.log('server              CPU µs/req (median, rounds)          req/s (median)  CPU share of bare  req/s share of bare');
for (const s of servers) {
  const cpu = median(s.cpu);
  console.log(
    `${s.name.padEnd(19)} ${cpu.toFixed(1).padStart(6)} [${s.cpu.map((c) => c.toFixed(0)).join(' ')}]`.padEnd(57) +
      `${median(s.rate).toFixed(0).padStart(6)}          ${((median(bare.cpu) / cpu) * 100).toFixed(0).padStart(3)}%               ${((median(s.rate) / median(bare.rate)) * 100).toFixed(0).padStart(3)}%`,
  );
}
for (const s of servers) s.child.disconnect(); // each exits (dropping its database with PG_URL)
