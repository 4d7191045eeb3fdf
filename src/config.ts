// Configuration from command-line flags and the environment, validated once at start.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built browser app of this checkout (from src/ or from a build in dist/ alike). */
const DEFAULT_WEB_DIR = fileURLToPath(new URL('../web/dist', import.meta.url));

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** postgres://... to run on PostgreSQL; unset means SQLite in `dataDir`. */
  databaseUrl: string | null;
  /** redis://... to share events between several processes; unset means one process. */
  redisUrl: string | null;
  /** Prefix of this deployment's Redis keys, so deployments (and tests) can share a Redis. */
  redisPrefix: string;
  /** Public host (and port) realms are served on; subdomain realms live under it. */
  externalHost: string;
  /** Scheme of the public URL realms are served on. */
  externalScheme: 'http' | 'https';
  logLevel: string;
  /** Seconds an idle event queue lives before it is collected. */
  eventQueueTimeoutSeconds: number;
  /** Seconds a long-poll waits before answering with a heartbeat. */
  heartbeatSeconds: number;
  /** Milliseconds at least between two answers to one event queue while events keep coming (0: none). */
  eventAnswerGapMs: number;
  maxFileUploadSizeMib: number;
  /** Where other processes reach this one to forward long-polls (REDIS_URL deployments). */
  internalUrl: string | null;
  uploadsDir: string;
  /** The built browser app served at / (index.html and assets/). */
  webDir: string;
  /**
   * Link previews and the image proxy may fetch private, loopback and link-local addresses
   * (PREVIEW_ALLOW_PRIVATE=true). Off by default: users could otherwise make the server fetch
   * from its own network. Tests turn it on to preview pages of a local HTTP server.
   */
  previewAllowPrivate: boolean;
  /** Key that signs image proxy URLs (IMAGE_PROXY_SECRET); unset: one kept in the database. */
  imageProxySecret: string | null;
  /** Request and password limits (src/http/rate-limit.ts); a null rule is no limit. */
  rateLimits: RateLimitRules;
  /** Event queues one user may hold in a process; the least recently used goes first. */
  maxEventQueuesPerUser: number;
  /** Fastify's `trustProxy`: which proxies' X-Forwarded-For names the client's address. */
  trustProxy: boolean | string;
  /** smtp://user:pass@host:port or smtps://... (TLS); unset: links are written to the log instead. */
  smtpUrl: string | null;
  /** The From of the server's mail. */
  emailFrom: string;
}

/** At most `count` in any `seconds` (a password limit) or on average (a request budget). */
export interface RateRule {
  count: number;
  seconds: number;
}

export interface RateLimitRules {
  /** Requests of one user (the reference's `api_by_user`). */
  apiByUser: RateRule | null;
  /** Requests without a user, by client address (`api_by_ip`). */
  apiByAddress: RateRule | null;
  /** Password attempts on one username (`authenticate_by_username`). */
  authByUsername: RateRule | null;
  /** Password attempts from one client address, whatever the username. */
  authByAddress: RateRule | null;
}

/** The defaults: the reference's, and for addresses a bound on guessing across usernames. */
export const RATE_LIMIT_DEFAULTS = {
  RATE_LIMIT_API_BY_USER: '200/60',
  RATE_LIMIT_API_BY_ADDRESS: '100/60',
  RATE_LIMIT_AUTH_BY_USERNAME: '5/1800',
  RATE_LIMIT_AUTH_BY_ADDRESS: '30/1800',
} as const;

export class ConfigError extends Error {}

type Source = Record<string, string | undefined>;

const FLAG_TO_ENV: Record<string, string> = {
  host: 'HOST',
  port: 'PORT',
  'data-dir': 'DATA_DIR',
  'database-url': 'DATABASE_URL',
  'redis-url': 'REDIS_URL',
  'external-host': 'EXTERNAL_HOST',
  'log-level': 'LOG_LEVEL',
};

/** Splits `--name value` / `--name=value` / `--flag` into a map and the remaining positionals. */
export function parseFlags(argv: string[]): { flags: Record<string, string>; positionals: string[] } {
  const flags: Record<string, string> = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0) {
      flags[arg.slice(2, eq)] = arg.slice(eq + 1);
    } else {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('--')) {
        flags[arg.slice(2)] = next;
        i++;
      } else {
        flags[arg.slice(2)] = 'true';
      }
    }
  }
  return { flags, positionals };
}

function intSetting(value: string, name: string, min: number, max: number): number {
  if (!/^\d+$/.test(value)) throw new ConfigError(`${name} must be a whole number, not "${value}"`);
  const n = Number(value);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}`);
  return n;
}

function boolSetting(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new ConfigError(`${name} must be true or false, not "${value}"`);
}

/** `COUNT/SECONDS` (e.g. `200/60`), or `off` for no limit. */
export function rateRule(value: string, name: string): RateRule | null {
  if (value === 'off') return null;
  const m = /^(\d+)\/(\d+)$/.exec(value);
  if (!m) throw new ConfigError(`${name} must look like 200/60 (requests/seconds) or be off, not "${value}"`);
  const count = Number(m[1]);
  const seconds = Number(m[2]);
  if (count < 1 || count > 1_000_000_000 || seconds < 1 || seconds > 86400 * 7) {
    throw new ConfigError(`${name}: the count must be at least 1 and the seconds between 1 and 604800`);
  }
  return { count, seconds };
}

function rateLimitRules(env: Source): RateLimitRules {
  const rule = (name: keyof typeof RATE_LIMIT_DEFAULTS) => rateRule(env[name] || RATE_LIMIT_DEFAULTS[name], name);
  return {
    apiByUser: rule('RATE_LIMIT_API_BY_USER'),
    apiByAddress: rule('RATE_LIMIT_API_BY_ADDRESS'),
    authByUsername: rule('RATE_LIMIT_AUTH_BY_USERNAME'),
    authByAddress: rule('RATE_LIMIT_AUTH_BY_ADDRESS'),
  };
}

/** `true` (every proxy), or the proxies' addresses (CIDR ranges allowed) separated by commas. */
function trustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (!/^[0-9a-fA-F:.,/ ]+$/.test(value)) throw new ConfigError('TRUST_PROXY must be true or addresses (CIDR ranges allowed) separated by commas');
  return value;
}

function checkInternalUrl(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (!/^https?:\/\/[^/]+$/.test(value)) throw new ConfigError('INTERNAL_URL must look like http://10.0.0.5:9991 (no path)');
  return value;
}

/** Flags win over the environment; the environment wins over defaults. */
export function loadConfig(flags: Record<string, string> = {}, env: Source = process.env): Config {
  const get = (flag: string): string | undefined => {
    const fromFlag = flags[flag];
    if (fromFlag !== undefined) return fromFlag;
    const envName = FLAG_TO_ENV[flag];
    const fromEnv = envName ? env[envName] : undefined;
    return fromEnv === '' ? undefined : fromEnv;
  };
  const host = get('host') ?? '127.0.0.1';
  const port = intSetting(get('port') ?? '9991', 'port', 0, 65535);
  const dataDir = path.resolve(get('data-dir') ?? './data');
  const databaseUrl = get('database-url') ?? null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const redisUrl = get('redis-url') ?? null;
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL must start with redis:// or rediss://');
  }
  const defaultExternal = `${host === '127.0.0.1' || host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;
  const scheme = env.EXTERNAL_SCHEME ?? 'http';
  if (scheme !== 'http' && scheme !== 'https') throw new ConfigError('EXTERNAL_SCHEME must be http or https');
  const smtpUrl = env.SMTP_URL ? env.SMTP_URL : null;
  if (smtpUrl !== null && !/^smtps?:\/\/[^/]+/.test(smtpUrl)) throw new ConfigError('SMTP_URL must look like smtp://user:pass@host:587 or smtps://user:pass@host:465');
  const externalHost = (get('external-host') ?? defaultExternal).toLowerCase();
  return {
    host,
    port,
    dataDir,
    databaseUrl,
    redisUrl,
    redisPrefix: env.REDIS_PREFIX ?? 'parley',
    internalUrl: checkInternalUrl(env.INTERNAL_URL),
    externalHost,
    externalScheme: scheme,
    logLevel: get('log-level') ?? 'info',
    eventQueueTimeoutSeconds: intSetting(env.EVENT_QUEUE_TIMEOUT_SECONDS ?? '600', 'EVENT_QUEUE_TIMEOUT_SECONDS', 1, 86400),
    heartbeatSeconds: intSetting(env.HEARTBEAT_SECONDS ?? '50', 'HEARTBEAT_SECONDS', 1, 600),
    // The default is DEFAULT_ANSWER_GAP_MS of events/manager.ts (a layer this one does not import).
    eventAnswerGapMs: intSetting(env.EVENT_ANSWER_GAP_MS ?? '20', 'EVENT_ANSWER_GAP_MS', 0, 1000),
    maxFileUploadSizeMib: intSetting(env.MAX_FILE_UPLOAD_SIZE_MIB ?? '25', 'MAX_FILE_UPLOAD_SIZE_MIB', 1, 10240),
    uploadsDir: path.resolve(env.UPLOADS_DIR ?? path.join(dataDir, 'uploads')),
    webDir: env.WEB_DIR ? path.resolve(env.WEB_DIR) : DEFAULT_WEB_DIR,
    previewAllowPrivate: boolSetting(env.PREVIEW_ALLOW_PRIVATE, 'PREVIEW_ALLOW_PRIVATE'),
    imageProxySecret: env.IMAGE_PROXY_SECRET ? env.IMAGE_PROXY_SECRET : null,
    rateLimits: rateLimitRules(env),
    maxEventQueuesPerUser: intSetting(env.MAX_EVENT_QUEUES_PER_USER || '50', 'MAX_EVENT_QUEUES_PER_USER', 1, 100_000),
    trustProxy: trustProxy(env.TRUST_PROXY),
    smtpUrl,
    emailFrom: env.EMAIL_FROM ? env.EMAIL_FROM : `Parley <noreply@${externalHost.replace(/:\d+$/, '')}>`,
  };
}
