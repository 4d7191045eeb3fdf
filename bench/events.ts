// Event delivery: send-to-delivery latency to long-polling clients (median, p99), events
// delivered per second, and how much memory each idle long-polling client costs the server.
// Run: npx tsx bench/events.ts   (sizes: IDLE_CLIENTS, POLLERS, RATE messages/s, SECONDS a round,
// ROUNDS measured one after the other (the figures of one vary with the machine's noise),
// WARMUP_SECONDS: sent at the same rate first and not measured, so the server's code is compiled;
// CPU_PROFILE=file.cpuprofile: the server's CPU profile of the measured sends, for Chrome's DevTools;
// SERVER_NODE_FLAGS="--trace-gc-nvp ...": flags for the server's node, to watch its garbage collector)
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { apiClient, createUsers, type Call, type Reply } from './_client.ts';

const IDLE_CLIENTS = Number(process.env.IDLE_CLIENTS ?? 2000);
const POLLERS = Number(process.env.POLLERS ?? 20);
const RATE = Number(process.env.RATE ?? 200);
const SECONDS = Number(process.env.SECONDS ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const WARMUP_SECONDS = Number(process.env.WARMUP_SECONDS ?? 3);

let call: Call;
let agent: http.Agent;

function ask<T>(child: ChildProcess, kind: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (msg: { kind: string }) => {
      if (msg.kind !== kind) return;
      child.off('message', on);
      resolve(msg as T);
    };
    child.on('message', on);
    child.send({ kind });
  });
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;

/**
 * How long the disk under the server's data folder (os.tmpdir(), as in _events-server.ts) takes
 * to flush a small append: a send waits for one such flush, so its tail is the send's floor.
 */
async function diskFlushes(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-disk-'));
  const handle = await fs.promises.open(path.join(dir, 'probe'), 'a');
  const times: number[] = [];
  for (let i = 0; i < 400; i++) {
    await handle.write(Buffer.alloc(4096, i));
    const t0 = performance.now();
    await handle.datasync();
    times.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 5));
  }
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
  times.sort((a, b) => a - b);
  return `median ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, max ${times[times.length - 1]!.toFixed(1)} ms`;
}

async function main(): Promise<void> {
  console.log(`disk flushes in ${os.tmpdir()} (400 appends of 4 KB, each flushed): ${await diskFlushes()}`);
  const child = fork(new URL('./_events-server.ts', import.meta.url).pathname, [], { execArgv: ['--import', 'tsx', '--expose-gc', ...(process.env.SERVER_NODE_FLAGS ? process.env.SERVER_NODE_FLAGS.split(' ') : [])] });
  // A failed run (EMFILE past the open-files limit, say) must not leave the server behind.
  process.on('exit', () => child.kill());
  const ready = await new Promise<{ url: string; ownerEmail: string; ownerKey: string }>((resolve) => child.once('message', resolve as never));
  const base = `${ready.url}/api/v1`;
  ({ call, agent } = apiClient(base));
  const owner = `${ready.ownerEmail}:${ready.ownerKey}`;

  // Users: each poller is its own user, subscribed to one stream the sender posts to.
  const users = await createUsers(call, owner, POLLERS);
  await call('POST', '/users/me/subscriptions', owner, { subscriptions: [{ name: 'bench' }], principals: [ready.ownerEmail, ...users.map((u) => u.split(':')[0])] });

  // 1. Idle long-polling clients: memory per client.
  const before = await ask<NodeJS.MemoryUsage>(child, 'memory');
  // Held by a process of their own (bench/_idle-clients.ts): see there.
  const idle = IDLE_CLIENTS > 0 ? fork(new URL('./_idle-clients.ts', import.meta.url).pathname, [], { execArgv: ['--import', 'tsx'] }) : null;
  if (idle) {
    process.on('exit', () => idle.kill());
    await new Promise<void>((resolve, reject) => {
      idle.once('message', () => resolve());
      idle.once('exit', (code) => reject(new Error(`the idle clients' process exited (${String(code)})`)));
      idle.send({ base, users, count: IDLE_CLIENTS });
    });
  }
  await new Promise((r) => setTimeout(r, 1000));
  const after = await ask<NodeJS.MemoryUsage & { queues: number }>(child, 'memory');
  const perClient = (after.rss - before.rss) / IDLE_CLIENTS;
  const heapPerClient = (after.heapUsed - before.heapUsed) / IDLE_CLIENTS;
  if (IDLE_CLIENTS > 0) console.log(`idle long-polls: ${IDLE_CLIENTS} clients held (${after.queues} queues); server RSS +${(perClient / 1024).toFixed(1)} KB per client, JS heap +${(heapPerClient / 1024).toFixed(1)} KB per client`);

  // 2. Latency and throughput: the owner sends RATE messages/s for SECONDS, ROUNDS times over;
  // every poller receives each one. Each round is reported, then the median of the rounds.
  const sentAt = new Map<string, number>();
  // The client's own pauses (GC, parsing) count in the latencies it measures: reported too.
  const clientLoop = monitorEventLoopDelay({ resolution: 5 });
  clientLoop.enable();
  const received: [string, number][] = []; // content, when a poller had it (performance.now())
  let running = true;
  const pollers = users.map(async (who) => {
    const reg = await call('POST', '/register', who, { event_types: ['message'], fetch_event_types: [] });
    let last = -1;
    while (running) {
      const r = await call('GET', '/events', who, { queue_id: reg.body.queue_id, last_event_id: last });
      const now = performance.now();
      for (const e of r.body.events as { id: number; type: string; message?: { content: string } }[]) {
        last = Math.max(last, e.id);
        if (e.type === 'message' && e.message && sentAt.has(e.message.content)) received.push([e.message.content, now]);
      }
    }
  });
  await new Promise((r) => setTimeout(r, 300));
  const warmUpStart = performance.now();
  const warmUps: Promise<Reply>[] = [];
  for (let i = 0; i < RATE * WARMUP_SECONDS; i++) {
    const wait = warmUpStart + (i * 1000) / RATE - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    warmUps.push(call('POST', '/messages', owner, { type: 'stream', to: 'bench', topic: 'load', content: `warm-up ${i}` }));
  }
  await Promise.all(warmUps);
  if (process.env.CPU_PROFILE) await ask(child, 'profile-start');
  const total = RATE * SECONDS;
  const rounds: { median: number; p99: number }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    received.length = 0;
    await ask(child, 'sync-waits'); // from here on
    clientLoop.reset();
    const start = performance.now();
    const sends: Promise<Reply>[] = [];
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const content = `r${round}m${i}`;
      sentAt.set(content, performance.now());
      sends.push(call('POST', '/messages', owner, { type: 'stream', to: 'bench', topic: 'load', content }));
    }
    await Promise.all(sends);
    const sendSeconds = (performance.now() - start) / 1000;
    await new Promise((r) => setTimeout(r, 500));
    // Read before the figures come over IPC: parsing them is the client's, after the round.
    const clientDelay = { p99: clientLoop.percentile(99) / 1e6, max: clientLoop.max / 1e6 };
    const latencies = received.map(([content, at]) => at - sentAt.get(content)!).sort((a, b) => a - b);
    const { times, answered } = await ask<{ times: Record<string, number>; answered: Record<string, number[]> }>(child, 'published');
    const queueLatencies = received.map(([content, at]) => performance.timeOrigin + at - times[content]!).sort((a, b) => a - b);
    // Until the server handed the answer to the socket: the client's own delays left out.
    const serverLatencies = Object.entries(answered)
      .flatMap(([content, ats]) => ats.map((at) => at - performance.timeOrigin - sentAt.get(content)!))
      .sort((a, b) => a - b);
    const server = await ask<{ waits: number[]; loopDelay: { p99: number; max: number } }>(child, 'sync-waits');
    const waits = server.waits.filter((w) => w > 0.05).sort((a, b) => a - b);
    rounds.push({ median: percentile(latencies, 50), p99: percentile(latencies, 99) });
    console.log(
      `delivery, round ${round}: ${total} messages at ${RATE}/s (achieved ${(total / sendSeconds).toFixed(0)}/s) to ${POLLERS} long-polling clients: ` +
        `${received.length} of ${total * POLLERS} delivered, median ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, ` +
        `${(received.length / sendSeconds).toFixed(0)} events delivered/s`,
    );
    console.log(
      `  until the server answered the poll (the client's delays left out): median ${percentile(serverLatencies, 50).toFixed(1)} ms, p99 ${percentile(serverLatencies, 99).toFixed(1)} ms`,
    );
    console.log(
      `  of which publish (after commit) to delivery: median ${percentile(queueLatencies, 50).toFixed(1)} ms, p99 ${percentile(queueLatencies, 99).toFixed(1)} ms; ` +
        `requests that waited for the disk: ${waits.length}, waiting median ${percentile(waits, 50).toFixed(1)} ms, p99 ${percentile(waits, 99).toFixed(1)} ms, max ${(waits.at(-1) ?? 0).toFixed(1)} ms`,
    );
    console.log(
      `  event-loop delay: server p99 ${server.loopDelay.p99.toFixed(1)} ms, max ${server.loopDelay.max.toFixed(1)} ms; ` +
        `this bench client p99 ${clientDelay.p99.toFixed(1)} ms, max ${clientDelay.max.toFixed(1)} ms`,
    );
  }
  if (process.env.CPU_PROFILE) {
    await ask(child, 'profile-stop');
    console.log(`server CPU profile of the measured sends: ${process.env.CPU_PROFILE}`);
  }
  running = false;
  // Wake the pollers so they stop.
  await call('POST', '/messages', owner, { type: 'stream', to: 'bench', topic: 'load', content: 'stop' });
  await Promise.all(pollers);
  const middle = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const p99s = rounds.map((r) => r.p99);
  console.log(
    `delivery over ${ROUNDS} rounds: median of medians ${middle(rounds.map((r) => r.median)).toFixed(1)} ms; ` +
      `median p99 ${middle([...p99s]).toFixed(1)} ms (rounds: ${p99s.map((x) => x.toFixed(1)).join(', ')} ms)`,
  );

  // 3. The event system alone: message events published straight to the queues at PUBLISH_RATE/s.
  const publishRate = Number(process.env.PUBLISH_RATE ?? 200);
  running = true;
  const receivedOnly: [string, number][] = [];
  let deliveredOnly = 0;
  const pollers2 = users.map(async (who) => {
    const reg = await call('POST', '/register', who, { event_types: ['message'], fetch_event_types: [] });
    let last = -1;
    while (running) {
      const r = await call('GET', '/events', who, { queue_id: reg.body.queue_id, last_event_id: last });
      const wall = performance.timeOrigin + performance.now();
      for (const e of r.body.events as { id: number; type: string; message?: { content: string } }[]) {
        last = Math.max(last, e.id);
        if (e.type !== 'message' || !e.message) continue;
        receivedOnly.push([e.message.content, wall]);
        deliveredOnly++;
      }
    }
  });
  await new Promise((r) => setTimeout(r, 300));
  const { seconds: publishSeconds } = await new Promise<{ seconds: number }>((resolve) => {
    const on = (m: { kind: string; seconds: number }) => {
      if (m.kind !== 'publish-only') return;
      child.off('message', on);
      resolve(m);
    };
    child.on('message', on);
    child.send({ kind: 'publish-only', rate: publishRate, seconds: SECONDS });
  });
  await new Promise((r) => setTimeout(r, 500));
  running = false;
  await call('POST', '/messages', owner, { type: 'stream', to: 'bench', topic: 'load', content: 'stop' });
  await Promise.all(pollers2);
  const { times: times2 } = await ask<{ times: Record<string, number> }>(child, 'published');
  const onlyLatencies = receivedOnly.flatMap(([content, at]) => (times2[content] === undefined ? [] : [at - times2[content]!])).sort((a, b) => a - b);
  console.log(
    `publish-only: ${publishRate} message events/s for ${SECONDS} s to ${POLLERS} long-polling clients: ` +
      `median ${percentile(onlyLatencies, 50).toFixed(1)} ms, p99 ${percentile(onlyLatencies, 99).toFixed(1)} ms, ` +
      `${(deliveredOnly / publishSeconds).toFixed(0)} events delivered/s`,
  );

  idle?.kill();
  child.send({ kind: 'stop' });
  await new Promise((r) => child.once('exit', r));
  agent.destroy();
}

await main();
