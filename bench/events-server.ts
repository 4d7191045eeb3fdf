// The server side of bench/events.ts: a Parley process on a temporary SQLite database that
// answers memory questions over IPC. Run by bench/events.ts, not directly.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { checkCreateRealm } from '../src/actions/realms.ts';
import { createLogger } from '../src/log.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
const config = loadConfig({ host: '127.0.0.1', port: '0', 'data-dir': dataDir }, { EXTERNAL_HOST: 'localhost', HEARTBEAT_SECONDS: '300' });
// When each message event was published (wall clock, sub-millisecond), by content.
const publishedAt = new Map<string, number>();
const server = await createServer(config, {
  log: createLogger('warn'),
  onPublish(event) {
    const m = event as { type: string; message?: { content?: string }; raw_content?: string };
    if (m.type === 'message' && typeof m.raw_content === 'string') publishedAt.set(m.raw_content, performance.timeOrigin + performance.now());
  },
});
const url = await server.listen();
const realm = await checkCreateRealm(server.app, {
  name: 'Bench', subdomain: '', ownerEmail: 'owner@example.com', ownerName: 'Owner', ownerPassword: 'owner-password',
});

process.on('message', (msg: { kind: string }) => {
  if (msg.kind === 'memory') {
    globalThis.gc?.();
    process.send!({ kind: 'memory', ...process.memoryUsage(), queues: server.app.queues!.size });
  } else if (msg.kind === 'published') {
    process.send!({ kind: 'published', times: Object.fromEntries(publishedAt) });
  } else if (msg.kind === 'stop') {
    void server.close().then(() => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  }
});
process.send!({ kind: 'ready', url, ownerEmail: 'owner@example.com', ownerKey: realm.apiKey });
