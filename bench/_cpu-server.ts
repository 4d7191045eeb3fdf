// The server side of bench/users-me.ts and bench/delivery.ts: a bare node:http server or a
// Parley process (from the source tree in PARLEY_SRC, so two versions can be compared in one run)
// that reports its CPU time over IPC. Run by those benches, not directly.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { BENCH_RATE_LIMITS } from './_limits.ts';

const kind = process.argv[2];
/** Run when the bench lets go of this process (it disconnects), before it exits. */
let atExit = async (): Promise<void> => {};
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
  // PG_URL (and REDIS): a fresh database of its own on that server, dropped at exit.
  const db = process.env.PG_URL ? await freshDatabase(process.env.PG_URL) : null;
  const pgEnv: Record<string, string> = db ? { DATABASE_URL: db, REDIS_URL: process.env.REDIS ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: path.basename(new URL(db).pathname) } : {};
  const config = loadConfig({ host: '127.0.0.1', port: '0', 'data-dir': dataDir }, { ...BENCH_RATE_LIMITS, EXTERNAL_HOST: 'localhost', ...pgEnv });
  const server = await createServer(config, { log: createLogger('warn') });
  url = (await server.listen()) + '/api/v1';
  const dropDatabase = atExit;
  atExit = async () => {
    await server.close();
    await dropDatabase();
  };
  const realm = await checkCreateRealm(server.app, { name: 'Bench', subdomain: '', ownerEmail: 'owner@example.com', ownerName: 'Owner', ownerPassword: 'owner-password' });
  info = { auth: `owner@example.com:${realm.apiKey}` };
}
async function freshDatabase(adminUrl: string): Promise<string> {
  const { default: pg } = await import('pg');
  const name = `parley_cpu_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  atExit = async () => {
    const drop = new pg.Client({ connectionString: adminUrl });
    await drop.connect();
    await drop.query(`drop database if exists ${name} with (force)`);
    await drop.end();
  };
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

process.on('message', (msg: { kind: string }) => {
  if (msg.kind === 'cpu') process.send!({ kind: 'cpu', ...process.cpuUsage() });
  // An ordinary exit, so that --cpu-prof writes its profile.
  if (msg.kind === 'exit') process.exit(0);
});
process.once('disconnect', () => void atExit().finally(() => process.exit(0)));
process.send!({ kind: 'ready', url, ...info });
