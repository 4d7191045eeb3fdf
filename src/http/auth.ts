// Authentication: the realm comes from the Host header, the user from HTTP Basic credentials
// (API email and API key).
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/database.ts';
import type { Realm, Session, User } from '../db/schema.ts';
import { liveSession } from '../db/queries/sessions.ts';
import { realmBySubdomain } from '../db/queries/realms.ts';
import { userByApiKey, userById } from '../db/queries/users.ts';
import { ApiError, invalidApiKey, notForIncomingWebhookBots, notLoggedIn, realmDeactivated, userDeactivated } from '../lib/errors.ts';
import { BOT_TYPE } from '../lib/limits.ts';

/**
 * Every request reads its realm and user (and a browser's, its session); most requests are
 * long-polls and sends by the same few users. What was read is kept until a write that may change
 * it runs in any process (`Db.identityWrites`: counted here on SQLite, announced through Redis
 * between the processes on PostgreSQL); a read that raced such a write is not kept, nor is
 * anything while writes might go unseen. Kept rows are frozen and shared by the requests that read
 * them (a long-poll holds its realm and user for a minute).
 */
class IdentityCache {
  static readonly MAX = 10_000;
  readonly #writes: () => number | null;
  #seen: number | null = -1;
  readonly #realms = new Map<string, Realm>();
  readonly #users = new Map<string, User>();
  readonly #usersById = new Map<number, User>();
  readonly #sessions = new Map<string, Session>();

  constructor(writes: () => number | null) {
    this.#writes = writes;
  }

  realm(subdomain: string, load: () => Promise<Realm | undefined>): Promise<Realm | undefined> {
    return this.#get(this.#realms, subdomain, load);
  }

  user(apiKey: string, load: () => Promise<User | undefined>): Promise<User | undefined> {
    return this.#get(this.#users, apiKey, load);
  }

  /** Session authentication finds users by ID. */
  userById(id: number, load: () => Promise<User | undefined>): Promise<User | undefined> {
    return this.#get(this.#usersById, id, load);
  }

  /** A kept session is read again once `current` says no (expired, or due to be touched). */
  session(tokenHash: string, load: () => Promise<Session | undefined>, current: (s: Session) => boolean): Promise<Session | undefined> {
    return this.#get(this.#sessions, tokenHash, load, current);
  }

  /** The kept realm, without reading (undefined when none is, or what is kept may be stale). */
  keptRealm(subdomain: string): Realm | undefined {
    return this.#current() ? this.#realms.get(subdomain) : undefined;
  }

  keptUser(apiKey: string): User | undefined {
    return this.#current() ? this.#users.get(apiKey) : undefined;
  }

  #current(): boolean {
    const writes = this.#writes();
    return writes !== null && writes === this.#seen;
  }

  async #get<K, T extends object>(map: Map<K, T>, key: K, load: () => Promise<T | undefined>, current?: (v: T) => boolean): Promise<T | undefined> {
    const writes = this.#writes();
    if (writes !== this.#seen) {
      this.#realms.clear();
      this.#users.clear();
      this.#usersById.clear();
      this.#sessions.clear();
      this.#seen = writes;
    }
    if (writes === null) return load();
    const hit = map.get(key);
    if (hit && (current === undefined || current(hit))) return hit;
    const value = await load();
    if (value && this.#writes() === writes) {
      if (map.size >= IdentityCache.MAX) map.clear();
      map.set(key, Object.freeze(value));
    }
    return value;
  }
}

const caches = new WeakMap<Db, IdentityCache | null>();

function identityCache(db: Db): IdentityCache | null {
  let cache = caches.get(db);
  if (cache === undefined) {
    cache = db.identityWrites ? new IdentityCache(db.identityWrites) : null;
    caches.set(db, cache);
  }
  return cache;
}

function loadRealm(app: AppContext, subdomain: string): Promise<Realm | undefined> {
  const load = () => realmBySubdomain(app.db.kysely, subdomain);
  return identityCache(app.db)?.realm(subdomain, load) ?? load();
}

function loadUser(app: AppContext, apiKey: string): Promise<User | undefined> {
  const load = () => userByApiKey(app.db.kysely, apiKey);
  return identityCache(app.db)?.user(apiKey, load) ?? load();
}

export function loadUserById(app: AppContext, realmId: number, id: number): Promise<User | undefined> {
  const load = () => userById(app.db.kysely, realmId, id);
  return identityCache(app.db)?.userById(id, load) ?? load();
}

/**
 * The unexpired session with this token hash. A kept one is used until it is due to be touched
 * (`touchDue`): then it is read again, as another process may have touched it already.
 */
export function loadSession(app: AppContext, tokenHash: string, now: number, touchDue: (s: Session) => boolean): Promise<Session | undefined> {
  const load = () => liveSession(app.db.kysely, tokenHash, now);
  return identityCache(app.db)?.session(tokenHash, load, (s) => s.expires_at > now && !touchDue(s)) ?? load();
}

const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]', '::1'];

/**
 * The realm and user that `authenticate(app, request, 'user')` would accept for these headers,
 * when both are kept and accepted (the common case of a client polling again); null whenever it
 * would read the database or refuse them, so that it runs instead and says why.
 */
export function keptBasicIdentity(app: AppContext, host: string | undefined, authorization: string | undefined): { realm: Realm; user: User } | null {
  const cache = identityCache(app.db);
  if (!cache) return null;
  const realm = cache.keptRealm(subdomainOf(host, app.config.externalHost));
  if (!realm || realm.deactivated) return null;
  const creds = basicCredentials(authorization);
  if (!creds) return null;
  const user = cache.keptUser(creds.password);
  if (!user || user.realm_id !== realm.id || !user.is_active) return null;
  const email = creds.username.toLowerCase();
  if (user.email !== email && user.delivery_email !== email) return null;
  return { realm, user };
}

/** The realm subdomain a Host header names: '' for the bare host, 'acme' for acme.<host>. */
export function subdomainOf(hostHeader: string | undefined, externalHost: string): string {
  const host = (hostHeader ?? '').toLowerCase();
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  const externalName = externalHost.startsWith('[') ? externalHost.slice(0, externalHost.indexOf(']') + 1) : externalHost.split(':')[0]!;
  for (const base of [externalName, ...LOCAL_HOSTS]) {
    if (name === base) return '';
    if (name.endsWith('.' + base)) return name.slice(0, -(base.length + 1));
  }
  return '';
}

export async function realmForRequest(app: AppContext, request: FastifyRequest): Promise<Realm> {
  const subdomain = subdomainOf(request.headers.host, app.config.externalHost);
  const realm = await loadRealm(app, subdomain);
  if (!realm) throw new ApiError(`There is no organization at ${request.headers.host ?? 'this address'}`, 'BAD_REQUEST', 404);
  if (realm.deactivated) throw realmDeactivated();
  return realm;
}

type Credentials = Readonly<{ username: string; password: string }>;

/**
 * Clients send the same Authorization header on every request, so its parsed credentials are kept
 * (bounded, cleared when full): a long-poll skips the regular expression and the base64 decode.
 */
const keptCredentials = new Map<string, Credentials | null>();

export function basicCredentials(header: string | undefined): Credentials | null {
  if (!header) return null;
  let creds = keptCredentials.get(header);
  if (creds === undefined) {
    creds = parseBasic(header);
    if (header.length > 1000) return creds;
    if (keptCredentials.size >= 10_000) keptCredentials.clear();
    keptCredentials.set(header, creds);
  }
  return creds;
}

function parseBasic(header: string): Credentials | null {
  const m = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return Object.freeze({ username: decoded.slice(0, colon), password: decoded.slice(colon + 1) });
}

export async function authenticate(
  app: AppContext,
  request: FastifyRequest,
  mode: 'user' | 'optional' | 'none' | 'server',
): Promise<{ realm: Realm | null; user: User | null }> {
  if (mode === 'server') {
    const realm = await loadRealm(app, subdomainOf(request.headers.host, app.config.externalHost));
    return { realm: realm && !realm.deactivated ? realm : null, user: null };
  }
  const realm = await realmForRequest(app, request);
  if (mode === 'none') return { realm, user: null };
  const creds = basicCredentials(request.headers.authorization);
  if (!creds) {
    if (mode === 'optional' && !request.headers.authorization) return { realm, user: null };
    throw notLoggedIn();
  }
  const user = await loadUser(app, creds.password);
  const email = creds.username.toLowerCase();
  if (!user || user.realm_id !== realm.id || (user.email !== email && user.delivery_email !== email)) {
    throw invalidApiKey();
  }
  if (!user.is_active) throw userDeactivated();
  return { realm, user };
}

/** The reference lets incoming-webhook bots send messages and nothing else. */
export function refuseIncomingWebhookBot(user: User): void {
  if (user.bot_type === BOT_TYPE.INCOMING_WEBHOOK) {
    throw notForIncomingWebhookBots();
  }
}
