// The server side of bench/delivery.ts: a Parley process from the source tree in PARLEY_SRC (so
// two versions can be compared in one run) on a temporary SQLite database, reporting its CPU
// time over IPC. Run by bench/delivery.ts, not directly.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_RATE_LIMITS } from './_limits.ts';

const src = process.env.PARLEY_SRC!;
const { createServer } = (await import(path.join(src, 'app.ts'))) as typeof import('../src/app.ts');
const { loadConfig } = (await import(path.join(src, 'config.ts'))) as typeof import('../src/config.ts');
const { checkCreateRealm } = (await import(path.join(src, 'actions/realms.ts'))) as typeof import('../src/actions/realms.ts');
const { createLogger } = (await import(path.join(src, 'log.ts'))) as typeof import('../src/log.ts');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
const config = loadConfig({ host: '127.0.0.1', port: '0', 'data-dir': dataDir }, { ...BENCH_RATE_LIMITS, EXTERNAL_HOST: 'localhost', HEARTBEAT_SECONDS: '300' });
const server = await createServer(config, { log: createLogger('warn') });
const url = (await server.listen()) + '/api/v1';
const realm = await checkCreateRealm(server.app, { name: 'Bench', subdomain: '', ownerEmail: 'owner@example.com', ownerName: 'Owner', ownerPassword: 'owner-password' });
process.on('message', (msg: { kind: string }) => {
  if (msg.kind === 'cpu') process.send!({ kind: 'cpu', ...process.cpuUsage() });
});
process.on('disconnect', () => {
  void server.close().finally(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});
process.send!({ kind: 'ready', url, ownerEmail: 'owner@example.com', ownerKey: realm.apiKey });
