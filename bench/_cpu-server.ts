// The server side of bench/users-me.ts and bench/delivery.ts: a bare node:http server or a
// Parley process (from the source tree in PARLEY_SRC, so two versions can be compared in one run)
// that reports its CPU time over IPC. Run by those benches, not directly.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { BENCH_RATE_LIMITS } from './_limits.ts';

const kind = process.argv[2];
let url: string;
let info: Record<string, unknown> = {};
if (kind === 'bare') {
  // The same answer /users/me gives, without the framework, authentication or the database.
  const body = JSON.stringify({ result: 'success', msg: '', user_id: 8, email: 'owner@example.com', full_name: 'Owner', max_message_id: 1 });
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v1`;
} else {
  const src = process.env.PARLEY_SRC!;
  const { createServer } = (await import(path.join(src, 'app.ts'))) as typeof import('../src/app.ts');
  const { loadConfig } = (await import(path.join(src, 'config.ts'))) as typeof import('../src/config.ts');
  const { checkCreateRealm } = (await import(path.join(src, 'actions/realms.ts'))) as typeof import('../src/actions/realms.ts');
  const { createLogger } = (await import(path.join(src, 'log.ts'))) as typeof import('../src/log.ts');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
  const config = loadConfig({ host: '127.0.0.1', port: '0', 'data-dir': dataDir }, { ...BENCH_RATE_LIMITS, EXTERNAL_HOST: 'localhost' });
  const server = await createServer(config, { log: createLogger('warn') });
  url = (await server.listen()) + '/api/v1';
  const realm = await checkCreateRealm(server.app, { name: 'Bench', subdomain: '', ownerEmail: 'owner@example.com', ownerName: 'Owner', ownerPassword: 'owner-password' });
  info = { auth: `owner@example.com:${realm.apiKey}` };
}
process.on('message', (msg: { kind: string }) => {
  if (msg.kind === 'cpu') process.send!({ kind: 'cpu', ...process.cpuUsage() });
});
process.send!({ kind: 'ready', url, ...info });
