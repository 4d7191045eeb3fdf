// parley serve | create-realm | move-to-postgres | backup | restore
import { randomBytes } from 'node:crypto';
import { createServer } from './app.ts';
import { ConfigError, loadConfig, parseFlags, type Config } from './config.ts';
import { serverSecret } from './db/queries/secrets.ts';
import { Limiter } from './lib/limiter.ts';
import { LIMITS } from './lib/limits.ts';
import { openDatabase } from './db/database.ts';
import { moveSqliteToPostgres } from './db/move.ts';
import { backup, BackupError, restore, type Manifest } from './lib/backup.ts';
import { countRealms } from './db/queries/realms.ts';
import { userEmailById } from './db/queries/users.ts';
import { checkCreateRealm } from './actions/realms.ts';
import { RecordingHub } from './events/hub.ts';
import { RateLimiter } from './http/rate-limit.ts';
import { ApiError } from './lib/errors.ts';
import { realmUrl } from './lib/realm.ts';
import { createLogger } from './log.ts';
import type { AppContext } from './context.ts';

const USAGE = `Usage:
  parley serve [--host H] [--port P] [--data-dir D] [--create-first-realm]
  parley create-realm --name N [--subdomain S] --owner-email E --owner-name N
                      [--owner-password P] [--data-dir D] [--json]
  parley move-to-postgres --database-url postgres://... [--data-dir D]
  parley backup --out PATH [--data-dir D | --database-url postgres://...]
  parley restore --from PATH [--data-dir D | --database-url postgres://...]

Environment: HOST, PORT, DATA_DIR, DATABASE_URL, REDIS_URL, EXTERNAL_HOST, WEB_DIR, LOG_LEVEL (see .env.example).`;

async function serve(config: Config, flags: Record<string, string>): Promise<void> {
  const server = await createServer(config);
  if (flags['create-first-realm'] === 'true' && (await countRealms(server.app.db.kysely)) === 0) {
    await createFirstRealm(server.app);
  }
  const url = await server.listen();
  // Says whether bin/parley.js found dist/ current (compiled) or fell back to tsx.
  server.app.log.info({ url, compiled: import.meta.url.endsWith('.js') }, 'Parley is serving');
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        server.app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

async function createFirstRealm(app: AppContext): Promise<void> {
  const password = randomBytes(9).toString('base64url');
  const email = 'owner@example.com';
  const r = await checkCreateRealm(app, { name: 'Parley', subdomain: '', ownerEmail: email, ownerName: 'Owner', ownerPassword: password });
  const url = realmUrl(app.config, { subdomain: '' });
  process.stdout.write(
    [
      '',
      'Created a first organization on this empty database:',
      `  URL:       ${url}`,
      `  login:     ${email}`,
      `  password:  ${password}`,
      `  API key:   ${r.apiKey}`,
      `Open ${url} in a browser and log in, or try: curl -u ${email}:${r.apiKey} ${url}/api/v1/users/me`,
      '',
    ].join('\n') + '\n',
  );
}

async function createRealm(config: Config, flags: Record<string, string>): Promise<void> {
  const need = (name: string): string => {
    const v = flags[name];
    if (v === undefined || v === 'true') throw new ConfigError(`--${name} is required`);
    return v;
  };
  const input = {
    name: need('name'),
    subdomain: flags.subdomain ?? '',
    ownerEmail: need('owner-email'),
    ownerName: need('owner-name'),
    ownerPassword: flags['owner-password'] ?? null,
  };
  const log = createLogger('silent');
  const db = await openDatabase(config);
  try {
    const app: AppContext = {
      config,
      db,
      log,
      events: new RecordingHub(),
      queues: null,
      limiter: RateLimiter.inMemory(config, log),
      startedAt: Math.floor(Date.now() / 1000),
      imageProxyKey: config.imageProxySecret ?? (await serverSecret(db.kysely, 'image_proxy')),
      previews: new Set(),
      fetchSlots: { previews: new Limiter(LIMITS.linkPreviewConcurrency), images: new Limiter(LIMITS.imageProxyConcurrency) },
    };
    const r = await checkCreateRealm(app, input);
    const url = realmUrl(config, { subdomain: input.subdomain.trim().toLowerCase() });
    const email = await userEmailById(db.kysely, r.userId);
    if (flags.json === 'true') {
      process.stdout.write(JSON.stringify({ realm_id: r.realmId, realm_url: url, user_id: r.userId, email, api_key: r.apiKey }) + '\n');
    } else {
      process.stdout.write(`Created organization ${input.name} at ${url}\nOwner: ${email} (user ${r.userId})\nAPI key: ${r.apiKey}\n`);
    }
  } finally {
    await db.close();
  }
}

async function moveToPostgres(config: Config): Promise<void> {
  if (!config.databaseUrl) throw new ConfigError('--database-url (or DATABASE_URL) names the PostgreSQL database to move into');
  const report = await moveSqliteToPostgres(config.dataDir, config.databaseUrl);
  for (const t of report.tables) process.stdout.write(`${t.name}: ${t.rows} rows\n`);
  process.stdout.write(`Moved ${config.dataDir}/parley.db into PostgreSQL. Start the server with DATABASE_URL set.\n`);
}

function describe(m: Manifest): string {
  const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;
  const db = m.database === 'sqlite' ? 'SQLite database' : `PostgreSQL database (${m.tables!.reduce((n, t) => n + t.rows, 0)} rows in ${m.tables!.length} tables)`;
  return `${db} and ${m.uploads.files} uploaded files (${mib(m.uploads.bytes)})`;
}

async function backupCommand(config: Config, flags: Record<string, string>): Promise<void> {
  const out = flags.out;
  if (out === undefined || out === 'true') throw new ConfigError('--out names the folder to write the backup to (it must not exist yet)');
  const m = await backup(config, out);
  process.stdout.write(`Backed up the ${describe(m)} to ${out}\n`);
}

async function restoreCommand(config: Config, flags: Record<string, string>): Promise<void> {
  const from = flags.from;
  if (from === undefined || from === 'true') throw new ConfigError('--from names a folder written by parley backup');
  const m = await restore(config, from);
  const where = config.databaseUrl ? 'the PostgreSQL database' : config.dataDir;
  process.stdout.write(`Restored the ${describe(m)} of ${m.created_at} into ${where}\n`);
}

async function main(argv: string[]): Promise<void> {
  const { flags, positionals } = parseFlags(argv);
  const command = positionals[0];
  if (!command || flags.help === 'true' || command === 'help') {
    process.stdout.write(USAGE + '\n');
    return;
  }
  const config = loadConfig(flags);
  switch (command) {
    case 'serve':
      return serve(config, flags);
    case 'create-realm':
      return createRealm(config, flags);
    case 'move-to-postgres':
      return moveToPostgres(config);
    case 'backup':
      return backupCommand(config, flags);
    case 'restore':
      return restoreCommand(config, flags);
    default:
      throw new ConfigError(`Unknown command '${command}'.\n${USAGE}`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof ApiError || err instanceof BackupError) {
    process.stderr.write(`parley: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`parley: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
