// The server side of bench/events.ts: a Parley process on a temporary SQLite database that
// answers memory questions over IPC. Run by bench/events.ts, not directly.
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import { createServer } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { checkCreateRealm } from '../src/actions/realms.ts';
import { createLogger } from '../src/log.ts';
import { BENCH_RATE_LIMITS } from './_limits.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
const config = loadConfig({ host: '127.0.0.1', port: '0', 'data-dir': dataDir }, { ...BENCH_RATE_LIMITS, EXTERNAL_HOST: 'localhost', HEARTBEAT_SECONDS: '300' });
// When each message event was published (wall clock, sub-millisecond), by content.
const publishedAt = new Map<string, number>();
// A real message event and its receivers, reused for the publish-only measurement.
let template: { event: Record<string, unknown>; userIds: number[] } | null = null;
const server = await createServer(config, {
  log: createLogger('warn'),
  onPublish(event, userIds) {
    const m = event as { type: string; message?: { content?: string; id?: number }; raw_content?: string };
    if (m.type === 'message' && typeof m.raw_content === 'string') {
      publishedAt.set(m.raw_content, performance.timeOrigin + performance.now());
      // Receivers come in groups by flags: keep the largest group of the first message.
      if (!template || (template.event.message as { id: number }).id === (m.message as { id: number }).id) {
        if (!template || userIds.length > template.userIds.length) template = { event: structuredClone(event) as Record<string, unknown>, userIds: [...userIds] };
      }
    }
  },
});
// When the server handed each poll's answer to the socket, by the measured messages it carried:
// what the bench client measures after that is its own time (and the loopback's).
const answeredAt = new Map<string, number[]>();
server.fastify.addHook('onSend', async (request, _reply, payload) => {
  if (typeof payload === 'string' && request.url.startsWith('/api/v1/events')) {
    const at = performance.timeOrigin + performance.now();
    for (const m of payload.matchAll(/"content":"(r\d+m\d+)"/g)) {
      let times = answeredAt.get(m[1]!);
      if (!times) answeredAt.set(m[1]!, (times = []));
      times.push(at);
    }
  }
  return payload;
});
const url = await server.listen();
// How long each wait for the disk took (a send's, a poll's), to tell the disk's stalls from ours.
const syncWaits: number[] = [];
const sync = server.app.db.sync.bind(server.app.db);
server.app.db.sync = async () => {
  const t0 = performance.now();
  await sync();
  syncWaits.push(performance.now() - t0);
};
const realm = await checkCreateRealm(server.app, {
  name: 'Bench', subdomain: '', ownerEmail: 'owner@example.com', ownerName: 'Owner', ownerPassword: 'owner-password',
});

const profiler = new inspector.Session();
// How late the server's event loop ran: a long task or a GC pause holds up every request.
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();

process.on('message', (msg: { kind: string }) => {
  if (msg.kind === 'memory') {
    globalThis.gc?.();
    process.send!({ kind: 'memory', ...process.memoryUsage(), queues: server.app.queues!.size });
  } else if (msg.kind === 'publish-only') {
    // Publishes message events straight to the queues at a fixed rate: the event system alone,
    // without the cost of storing messages.
    const { rate, seconds } = msg as unknown as { rate: number; seconds: number };
    const t = template!;
    const total = rate * seconds;
    const start = performance.now();
    let i = 0;
    const tick = () => {
      const due = Math.floor(((performance.now() - start) * rate) / 1000);
      for (; i < Math.min(due, total); i++) {
        const content = `p${i}`;
        const event = { ...t.event, raw_content: content, message: { ...(t.event.message as object), content, id: 1_000_000 + i } };
        publishedAt.set(content, performance.timeOrigin + performance.now());
        server.app.events.publish(event as never, t.userIds);
      }
      if (i < total) setTimeout(tick, 1);
      else process.send!({ kind: 'publish-only', seconds: (performance.now() - start) / 1000 });
    };
    tick();
  } else if (msg.kind === 'profile-start') {
    void profiler.connect();
    void profiler.post('Profiler.enable').then(() => profiler.post('Profiler.start')).then(() => process.send!({ kind: 'profile-start' }));
  } else if (msg.kind === 'profile-stop') {
    void profiler.post('Profiler.stop').then(({ profile }) => {
      fs.writeFileSync(process.env.CPU_PROFILE!, JSON.stringify(profile));
      process.send!({ kind: 'profile-stop' });
    });
  } else if (msg.kind === 'sync-waits') {
    process.send!({ kind: 'sync-waits', waits: syncWaits.splice(0), loopDelay: { p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 } });
    loopDelay.reset();
  } else if (msg.kind === 'published') {
    process.send!({ kind: 'published', times: Object.fromEntries(publishedAt), answered: Object.fromEntries(answeredAt) });
    answeredAt.clear();
  } else if (msg.kind === 'stop') {
    void server.close().then(() => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  }
});
process.send!({ kind: 'ready', url, ownerEmail: 'owner@example.com', ownerKey: realm.apiKey });
