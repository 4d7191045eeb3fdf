// Event delivery's CPU cost: server CPU time (process.cpuUsage, which a loaded machine disturbs
// far less than wall-clock figures) per message sent to a stream whose POLLERS subscribers each
// long-poll a queue (half of them asking for rendered content, half for raw), against the same
// sends with no queue at all; the difference over POLLERS is the cost of one delivery: pushing
// to the queue, waking the poll, its answer, and the client's next poll. Messages go one at a
// time, each once every poller has it, so each answer carries one event; with --rate R they go at
// R a second regardless, as under load, where one answer may carry several. With --baseline DIR (a
// checkout's src/), that version runs too, interleaved with this one: an A/B in one run.
// With --callgrind DIR, the servers run under valgrind's callgrind, and the figures are the
// instructions they ran (thousands): the machine's load does not change them, but the JIT and
// the garbage collector still do (two equal rounds differed twofold after 30 warm-up messages).
// Run: npx tsx bench/delivery.ts [--messages 300] [--pollers 50] [--rounds 5] [--warmup 100] [--rate R]
//   [--baseline DIR] [--callgrind DIR]
// (SERVER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/prof": flags for the servers' node)
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiClient, createUsers, type Call } from './_client.ts';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const MESSAGES = Number(args.get('messages') ?? 300);
const POLLERS = Number(args.get('pollers') ?? 50);
const ROUNDS = Number(args.get('rounds') ?? 5);
const WARMUP = Number(args.get('warmup') ?? 100);
const CALLGRIND = args.get('callgrind');
/** With --rate R, messages go at R a second without waiting for their delivery, so an answer may carry several. */
const RATE = Number(args.get('rate') ?? 0);
const dir = path.dirname(fileURLToPath(import.meta.url));

interface Server {
  name: string;
  child: ChildProcess;
  call: Call;
  owner: string;
  users: string[];
  /** Server CPU µs per message: with pollers, and with no queue. */
  polled: number[];
  alone: number[];
}

async function start(name: string, src: string): Promise<Server> {
  const flags = process.env.SERVER_NODE_FLAGS ? process.env.SERVER_NODE_FLAGS.split(' ') : [];
  const node = [...flags, '--import', 'tsx'];
  const valgrind = ['--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', `--callgrind-out-file=${CALLGRIND}/${name.replace(/\W/g, '-')}.%p`, process.execPath];
  const child = fork(path.join(dir, '_cpu-server.ts'), ['parley'], {
    env: { ...process.env, PARLEY_SRC: src },
    ...(CALLGRIND ? { execPath: 'valgrind', execArgv: [...valgrind, ...node] } : { execArgv: node }),
  });
  process.on('exit', () => child.kill());
  const ready = await new Promise<{ url: string; auth: string }>((resolve) => child.once('message', resolve as never));
  const { call } = apiClient(ready.url);
  const owner = ready.auth;
  const users = await createUsers(call, owner, POLLERS);
  await call('POST', '/users/me/subscriptions', owner, { subscriptions: [{ name: 'bench' }], principals: [owner.split(':')[0], ...users.map((u) => u.split(':')[0])] });
  return { name, child, call, owner, users, polled: [], alone: [] };
}

const cpuOf = (s: Server) =>
  new Promise<number>((resolve) => {
    s.child.once('message', (m: { user: number; system: number }) => resolve(m.user + m.system));
    s.child.send({ kind: 'cpu' });
  });

const callgrind = (s: Server, ...command: string[]) => execFileSync('callgrind_control', [...command, String(s.child.pid)], { stdio: 'ignore' });

/** Starts counting: returns what ends it, giving the server's CPU µs (or thousands of instructions) since. */
async function measure(s: Server): Promise<() => Promise<number>> {
  if (!CALLGRIND) {
    const c0 = await cpuOf(s);
    return async () => (await cpuOf(s)) - c0;
  }
  callgrind(s, '-z');
  callgrind(s, '-i', 'on');
  return async () => {
    callgrind(s, '-i', 'off');
    callgrind(s, '-d');
    const prefix = `${s.name.replace(/\W/g, '-')}.${s.child.pid}.`;
    const dumps = fs.readdirSync(CALLGRIND).filter((f) => f.startsWith(prefix)).sort((a, b) => Number(b.slice(prefix.length)) - Number(a.slice(prefix.length)));
    const totals = /^totals: (\d+)/m.exec(fs.readFileSync(path.join(CALLGRIND, dumps[0]!), 'utf8'));
    return Number(totals![1]) / 1000;
  };
}

const send = (s: Server, content: string) => s.call('POST', '/messages', s.owner, { type: 'stream', to: 'bench', topic: 'load', content });

/** Sends `n` messages one at a time; with pollers, each once every poller has the previous one. */
async function round(s: Server, n: number, withPollers: boolean): Promise<number> {
  const waiting = new Map<string, { left: number; done: () => void }>();
  let running = true;
  const queues: { who: string; id: string }[] = [];
  const pollers = withPollers
    ? s.users.map(async (who, i) => {
        const reg = await s.call('POST', '/register', who, { event_types: ['message'], fetch_event_types: [], apply_markdown: i % 2 === 0 });
        queues.push({ who, id: String(reg.body.queue_id) });
        let last = -1;
        while (running) {
          const r = await s.call('GET', '/events', who, { queue_id: reg.body.queue_id, last_event_id: last });
          for (const e of r.body.events as { id: number; message?: { content: string } }[]) {
            last = Math.max(last, e.id);
            const w = e.message && waiting.get(e.message.content.replace(/<\/?p>/g, ''));
            if (w && --w.left === 0) w.done();
          }
        }
      })
    : [];
  while (queues.length < (withPollers ? s.users.length : 0)) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 100));
  const one = async (content: string) => {
    const got = withPollers ? new Promise<void>((done) => waiting.set(content, { left: s.users.length, done })) : null;
    const r = await send(s, content);
    if (r.status !== 200) throw new Error(`${s.name}: ${r.status} ${JSON.stringify(r.body)}`);
    await got;
  };
  for (let i = 0; i < 20; i++) await one(`warm ${i}`);
  const done = await measure(s);
  if (RATE > 0) {
    const t0 = performance.now();
    const all: Promise<void>[] = [];
    for (let i = 0; i < n; i++) {
      const wait = t0 + (i * 1000) / RATE - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      all.push(one(`m${i}`));
    }
    await Promise.all(all);
  } else {
    for (let i = 0; i < n; i++) await one(`m${i}`);
  }
  const cost = await done();
  running = false;
  await send(s, 'stop');
  await Promise.all(pollers);
  for (const q of queues) await s.call('DELETE', '/events', q.who, { queue_id: q.id });
  return cost / n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const servers = [await start('parley', path.join(dir, '../src'))];
if (args.get('baseline')) servers.push(await start('parley baseline', path.resolve(args.get('baseline')!)));
for (const s of servers) {
  await round(s, WARMUP, true); // warm-up
  await round(s, WARMUP, false);
}
const load: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  // A different order each round, so a burst of load elsewhere falls on each in turn.
  const order = r % 2 ? [...servers].reverse() : servers;
  for (const s of order) {
    s.polled.push(await round(s, MESSAGES, true));
    s.alone.push(await round(s, MESSAGES, false));
  }
  load.push(os.loadavg()[0]!);
}
console.log(`${ROUNDS} rounds of ${MESSAGES} messages to a stream of ${POLLERS} long-polling subscribers; load average ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)}`);
const unit = CALLGRIND ? 'k instr' : 'CPU µs';
console.log(`server            ${unit}/message, polled (rounds)`.padEnd(55) + 'no queues (rounds)        per delivery (median of rounds)');
for (const s of servers) {
  const per = s.polled.map((p, i) => (p - s.alone[i]!) / POLLERS);
  console.log(
    `${s.name.padEnd(17)} ${median(s.polled).toFixed(0).padStart(6)} [${s.polled.map((c) => c.toFixed(0)).join(' ')}]`.padEnd(55) +
      `${median(s.alone).toFixed(0).padStart(5)} [${s.alone.map((c) => c.toFixed(0)).join(' ')}]`.padEnd(26) +
      `${median(per).toFixed(1).padStart(6)} ${CALLGRIND ? 'k instr' : 'µs'} [${per.map((c) => c.toFixed(1)).join(' ')}]`,
  );
}
// An ordinary exit (not a kill), so that a server run with --cpu-prof writes its profile.
await Promise.all(servers.map((s) => new Promise((resolve) => (s.child.once('exit', resolve), s.child.send({ kind: 'exit' })))));
