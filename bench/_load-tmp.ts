// TEMP tool (not committed): one send run on the cached full-size org, server = DIST dir's bin.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { apiClient } from './_client.ts';
import { BENCH_RATE_LIMITS } from './_limits.ts';
import { generateOrganization, sizeFromEnv } from './generate.ts';

const ROOT = process.env.ROOT ?? '/work/main';
const RATES = (process.env.RATES ?? '500').split(',').map(Number);
const SECS = Number(process.env.SECS ?? 5);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;
const cpu = (pid: number) => { const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) / 100; };
const threads = (pid: number) => { const m = new Map<string, number>(); for (const t of fs.readdirSync(`/proc/${pid}/task`)) { try { const raw = fs.readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8'); const name = raw.slice(raw.indexOf('(') + 1, raw.lastIndexOf(')')) + (t === String(pid) ? '*' : ''); const f = raw.split(') ')[1]!.split(' '); m.set(name + ' u', (m.get(name + ' u') ?? 0) + Number(f[11]) / 100); m.set(name + ' s', (m.get(name + ' s') ?? 0) + Number(f[12]) / 100); } catch {} } return m; };
const org = await generateOrganization(sizeFromEnv(), null);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-load-'));
fs.copyFileSync(path.join(org.dataDir!, 'parley.db'), path.join(dataDir, 'parley.db'));
if (process.env.SQL_PRE) { const { default: SQLite } = await import('better-sqlite3'); const d = new SQLite(path.join(dataDir, 'parley.db')); d.exec(process.env.SQL_PRE); d.close(); }
const port = await new Promise<number>((res) => { const s = net.createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as net.AddressInfo).port; s.close(() => res(p)); }); });
const flags = process.env.SERVER_NODE_FLAGS ? process.env.SERVER_NODE_FLAGS.split(' ') : [];
const child = spawn(process.execPath, [...flags, path.join(ROOT, 'bin', 'parley.js'), 'serve', '--host', '127.0.0.1', '--port', String(port), '--data-dir', dataDir], {
  env: { ...process.env, ...BENCH_RATE_LIMITS, LOG_LEVEL: 'warn', EXTERNAL_HOST: 'localhost', DATABASE_URL: '', REDIS_URL: '' }, stdio: ['ignore', 'ignore', 'inherit'] });
const base = `http://127.0.0.1:${port}/api/v1`;
for (let i = 0; ; i++) { if (await fetch(`${base}/server_settings`).then((r) => r.ok, () => false)) break; await sleep(100); }
const { call, agent } = apiClient(base);
const key = async (email: string) => `${email}:${(await call('POST', '/fetch_api_key', '', { username: email, password: org.password })).body.api_key}`;
const owner = await key(org.owner);
const mem = await call('GET', `/streams/${org.fifty.id}/members`, owner);
const ids = new Set(mem.body.subscribers as number[]);
const subs: string[] = [];
for (const u of org.users) if (ids.has(u.id)) subs.push(await key(u.email));
const pollers = subs.slice(0, Number(process.env.P ?? 50));
const sender = subs[0]!;
function rawGet(url: string, auth: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent, headers: { authorization: `Basic ${Buffer.from(auth).toString('base64')}` } }, (res) => {
      res.setEncoding('utf8'); let s = ''; res.on('data', (c: string) => (s += c)); res.on('end', () => resolve(s));
    }).on('error', reject);
  });
}
async function run(rate: number, seconds: number, tag: string) {
  const sentAt = new Map<string, number>(); const del: number[] = []; let delivered = 0; let running = true;
  const pattern = new RegExp(`${tag}n(\\d+)x`, 'g');
  const queues = await Promise.all(pollers.map(async (who) => { const r = await call('POST', '/register', who, { event_types: ['message'], fetch_event_types: [] }); return { who, queue: String(r.body.queue_id), last: Number(r.body.last_event_id) }; }));
  const polls = queues.map(async (qq) => { while (running) { const raw = await rawGet(`${base}/events?queue_id=${encodeURIComponent(qq.queue)}&last_event_id=${qq.last}`, qq.who); const now = performance.now();
    for (const e of (JSON.parse(raw) as any).events) { qq.last = Math.max(qq.last, e.id); if (e.type !== 'message') continue; for (const m of e.message.content.matchAll(pattern)) { const t = sentAt.get(m[1]); if (t === undefined) continue; del.push(now - t); delivered++; } } } });
  await sleep(300);
  const times: number[] = []; const total = Math.round(rate * seconds); const sends: Promise<void>[] = [];
  const c0 = cpu(child.pid!); const th0 = threads(child.pid!); const u0 = process.cpuUsage(); const start = performance.now();
  for (let i = 0; i < total; i++) { const w = start + (i * 1000) / rate - performance.now(); if (w > 0) await sleep(w); const k = String(i); const t0 = performance.now(); sentAt.set(k, t0);
    sends.push(call('POST', '/messages', sender, { type: 'stream', to: org.fifty.id, topic: 'standard bench', content: `${tag}n${k}x` }).then(() => void times.push(performance.now() - t0))); }
  await Promise.all(sends); const achieved = total / ((performance.now() - start) / 1000);
  for (let i = 0; i < 50 && delivered < total * pollers.length; i++) await sleep(100);
  const sc = cpu(child.pid!) - c0; const th1 = threads(child.pid!); const thr = [...th1].map(([k, v]) => [k, v - (th0.get(k) ?? 0)] as const).filter(([, v]) => v > 0.05).map(([k, v]) => `${k} ${(v / total * 1e6).toFixed(0)}`).join(', '); const uc = process.cpuUsage(u0);
  running = false; await call('POST', '/messages', sender, { type: 'stream', to: org.fifty.id, topic: 'standard bench', content: 'end' }); await Promise.all(polls);
  if (!process.env.KEEP_QUEUES) for (const qq of queues) await call("DELETE", "/events", qq.who, { queue_id: qq.queue });
  const f = (x: number) => x.toFixed(1);
  console.log(`rate ${rate} achieved ${achieved.toFixed(0)} send p50 ${f(q(times, .5))} p99 ${f(q(times, .99))} | deliv p50 ${f(q(del, .5))} p99 ${f(q(del, .99))} lost ${total * pollers.length - delivered} | server CPU/msg ${(sc / total * 1e6).toFixed(0)} µs client ${((uc.user + uc.system) / total).toFixed(0)} µs load ${os.loadavg()[0]!.toFixed(1)}\n   threads µs/msg: ${thr}`);
}
await run(200, 2, 'w');
for (const r of RATES) await run(r, SECS, `s${r}`);
agent.destroy(); child.kill('SIGINT'); await new Promise((r) => child.once('exit', r)); fs.rmSync(dataDir, { recursive: true, force: true });
