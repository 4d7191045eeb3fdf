// Builds the standard large organization for the benchmarks (issues 14 and 19): 1,000 users,
// 200 streams (one with every user, one with exactly 50), topics, 1,000,000 messages with
// rendered content, a user_messages row per recipient with read/unread flags, reactions and
// presence. The realm, its system groups, owner and `general` stream are made by the app's own
// action on a database opened (and migrated) by the app; the rest is bulk-inserted into the same
// tables, keeping what sending keeps (the search index: SQLite's full-text index at the end, as
// the server's deferred writes would, PostgreSQL's expression index by itself; streams'
// first_message_id, the sender's copy read, mentions flagged).
//
// Run: npx tsx bench/generate.ts   (USERS, STREAMS, MESSAGES; DATABASE_URL for PostgreSQL).
// SQLite builds are cached in the OS temporary folder by size and by this generator's code
// and the migrations; PostgreSQL builds go to a database of their own on DATABASE_URL's server.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { checkCreateRealm } from '../src/actions/realms.ts';
import { newSubscriptionRow } from '../src/db/queries/subscriptions.ts';
import { createServer } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/log.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { newApiKey } from '../src/lib/apikey.ts';
import { FLAG_BITS } from '../src/db/flags.ts';
import { renderMarkdown, type MarkdownContext } from '../src/lib/markdown/index.ts';
import { dmKey } from '../src/db/queries/recipients.ts';
import { REACTIONS, fullName, pick, plainHtml, plainText, planStreams, rand, richText, sample, topicName, weighted } from './_org-data.ts';
import { postgresWriter, sqliteWriter, type Writer } from './_org-writer.ts';

export interface OrgSize {
  users: number;
  streams: number;
  messages: number;
}

export interface Organization {
  size: OrgSize;
  /** The folder holding parley.db (SQLite), or null. */
  dataDir: string | null;
  /** The PostgreSQL database, or null. */
  databaseUrl: string | null;
  /** Every user's password. */
  password: string;
  owner: string;
  /** A member subscribed to many streams with unread messages: the one to log in as. */
  reader: { id: number; email: string; streams: number; unread: number };
  everyone: { id: number; name: string; subscribers: number };
  fifty: { id: number; name: string; subscribers: number };
  users: { id: number; email: string }[];
  rows: { userMessages: number; unread: number; reactions: number; dmMessages: number; topics: number };
  buildSeconds: number;
  /** CPU time of the build (the machine may be shared). */
  buildCpuSeconds: number;
}

export const PASSWORD = 'parley-bench-password';
const REALM_URL = 'http://localhost:9991';
const DM_SHARE = 0.12;
const RICH_SHARE = 0.03;
const BATCH = 10_000;

export function sizeFromEnv(env = process.env): OrgSize {
  const n = (name: string, d: number) => {
    const v = Number(env[name] ?? d);
    if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive whole number`);
    return v;
  };
  return { users: Math.max(60, n('USERS', 1000)), streams: Math.max(3, n('STREAMS', 200)), messages: n('MESSAGES', 1_000_000) };
}

/** Change this whenever a change here changes what a build contains. */
const GENERATOR_VERSION = 1;

/** A key that changes with the size, the generator's version and the migrations. */
function cacheKey(size: OrgSize): string {
  const h = crypto.createHash('sha256').update(migrations.map((m) => m.name).join(','));
  return `u${size.users}-s${size.streams}-m${size.messages}-v${GENERATOR_VERSION}-${h.digest('hex').slice(0, 8)}`;
}

const log = (s: string) => process.stderr.write(`[generate ${new Date().toISOString().slice(11, 19)}] ${s}\n`);

/** Returns the organization of this size, building it unless a build is cached. */
export async function generateOrganization(size: OrgSize = sizeFromEnv(), databaseUrl = process.env.DATABASE_URL || null): Promise<Organization> {
  const key = cacheKey(size);
  const infoFile = path.join(os.tmpdir(), `parley-org-${key}${databaseUrl ? '-pg' : ''}.json`);
  if (fs.existsSync(infoFile)) {
    const org = JSON.parse(fs.readFileSync(infoFile, 'utf8')) as Organization;
    if (org.databaseUrl ? await pgDatabaseExists(org.databaseUrl) : fs.existsSync(path.join(org.dataDir!, 'parley.db'))) return org;
  }
  if (databaseUrl) {
    const url = new URL(databaseUrl);
    url.pathname = `/parley_org_${key.replace(/-/g, '_')}`;
    await recreatePgDatabase(url.toString());
    const org = await build(size, null, url.toString());
    fs.writeFileSync(infoFile, JSON.stringify(org));
    return org;
  }
  const final = path.join(os.tmpdir(), `parley-org-${key}`);
  const building = `${final}.building-${process.pid}`;
  fs.rmSync(building, { recursive: true, force: true });
  const org = await build(size, building, null);
  fs.rmSync(final, { recursive: true, force: true });
  fs.renameSync(building, final);
  org.dataDir = final;
  fs.writeFileSync(infoFile, JSON.stringify(org));
  return org;
}

async function pgDatabaseExists(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}

async function recreatePgDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  try {
    await c.query(`drop database if exists "${name}" with (force)`);
    await c.query(`create database "${name}"`);
  } finally {
    await c.end();
  }
}

async function build(size: OrgSize, dataDir: string | null, databaseUrl: string | null): Promise<Organization> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  log(`building ${size.users} users, ${size.streams} streams, ${size.messages} messages (${databaseUrl ? 'PostgreSQL' : dataDir})`);
  // The realm, its system groups, owner and `general` stream, through the app (which migrates).
  const config = loadConfig({ host: '127.0.0.1', port: '0', 'data-dir': dataDir ?? os.tmpdir(), ...(databaseUrl ? { 'database-url': databaseUrl } : {}) }, { EXTERNAL_HOST: 'localhost' });
  const server = await createServer(config, { log: createLogger('silent') });
  const owner = 'owner@example.com';
  const made = await checkCreateRealm(server.app, { name: 'Bench', subdomain: '', ownerEmail: owner, ownerName: 'Owner', ownerPassword: PASSWORD });
  const k = server.app.db.kysely;
  // Hashing is slow on purpose: the owner's hash serves every user.
  const { password_hash: hash } = await k.selectFrom('users').select('password_hash').where('id', '=', made.userId).executeTakeFirstOrThrow();
  const general = await k.selectFrom('streams').selectAll().where('realm_id', '=', made.realmId).executeTakeFirstOrThrow();
  const next = async (table: 'users' | 'streams' | 'recipients' | 'subscriptions' | 'messages' | 'reactions') =>
    Number((await k.selectFrom(table).select((e) => e.fn.max('id').as('m')).executeTakeFirstOrThrow()).m ?? 0) + 1;
  const ids = { user: await next('users'), stream: await next('streams'), recipient: await next('recipients'), sub: await next('subscriptions'), message: await next('messages'), reaction: await next('reactions') };
  await server.close();

  const w: Writer = databaseUrl ? postgresWriter(databaseUrl) : sqliteWriter(path.join(dataDir!, 'parley.db'));
  const realmId = made.realmId;
  const start = Math.floor(Date.now() / 1000) - 2 * 365 * 86400;

  // Users: the owner, then members (a few administrators and moderators).
  const users: { id: number; email: string; name: string }[] = [{ id: made.userId, email: owner, name: 'Owner' }];
  for (let i = 1; i < size.users; i++) {
    const u = { id: ids.user++, email: `user${i}@example.com`, name: fullName(i) };
    users.push(u);
    w.add('users', {
      id: u.id, realm_id: realmId, email: u.email, delivery_email: u.email, full_name: u.name, role: i <= 4 ? 200 : i <= 14 ? 300 : 400,
      is_active: 1, is_bot: 0, bot_type: null, bot_owner_id: null, is_billing_admin: 0, can_create_users: 0, api_key: newApiKey(),
      password_hash: hash, date_joined: start + i * 60, timezone: 'UTC', avatar_source: 'G', avatar_version: 1, settings: '{}',
    });
  }
  const now = Math.floor(Date.now() / 1000);
  for (const u of users) {
    // Everyone has connected at some point; a few are online now.
    const seen = rand() < 0.05 ? now - 30 : now - Math.floor(rand() * 30 * 86400);
    w.add('presence', { user_id: u.id, realm_id: realmId, last_connected_time: seen, last_active_time: seen });
  }
  const reader = users[1]!;

  // Streams and their subscribers; the reader is in many of them.
  const plans = planStreams(size.streams, size.users);
  const streams: { id: number; recipientId: number; name: string; subs: number[]; muted: Set<number>; pick: () => number }[] = [];
  for (const [i, plan] of plans.entries()) {
    let id = general.id;
    let recipientId = general.recipient_id!;
    if (i > 0) {
      id = ids.stream++;
      recipientId = ids.recipient++;
      const description = `Conversations about ${plan.name}.`;
      w.add('streams', {
        id, realm_id: realmId, name: plan.name, description, rendered_description: plainHtml(description), date_created: start, deactivated: 0,
        invite_only: plan.inviteOnly ? 1 : 0, is_web_public: 0, history_public_to_subscribers: 1, stream_post_policy: 1, message_retention_days: null,
        can_remove_subscribers_group_id: general.can_remove_subscribers_group_id, first_message_id: null, recipient_id: recipientId, creator_id: pick(users).id,
      });
      w.add('recipients', { id: recipientId, realm_id: realmId, type: 2, stream_id: id, dm_key: null });
    }
    const must = plan.tier === 'everyone' ? [] : i === 1 || (plan.tier !== 'large' && rand() < 0.35) ? [1] : [];
    const members = plan.tier === 'everyone' ? users.map((_, n) => n) : sample(size.users, plan.size, must);
    const subs = members.map((n) => users[n]!.id);
    const muted = new Set<number>();
    for (const [n, userId] of subs.entries()) {
      // The realm's owner is subscribed to general already.
      if (i === 0 && userId === made.userId) continue;
      const row = { id: ids.sub++, ...newSubscriptionRow(userId, id, n) };
      if (plan.tier !== 'everyone' && rand() < 0.05) {
        row.is_muted = 1;
        muted.add(userId);
      }
      w.add('subscriptions', row);
    }
    // Some people talk much more than others.
    streams.push({ id, recipientId, name: plan.name, subs, muted, pick: () => subs[Math.floor(Math.pow(rand(), 1.8) * subs.length)]! });
  }
  await w.flush();

  // Who has read how far (in message numbers): most are nearly caught up, a muted stream is
  // left unread for its last 5% of traffic, the reader is a little behind.
  const m = size.messages;
  const readBelow = new Map<number, number>(users.map((u) => [u.id, m - Math.floor(m * (0.0005 + 0.01 * Math.pow(rand(), 3)))]));
  readBelow.set(reader.id, m - Math.floor(m * 0.004));
  const mutedReadBelow = m - Math.floor(m * 0.05);

  // Check that plain texts render as plainHtml() says, so that those need no renderer.
  const byName = new Map(users.map((u) => [u.name.toLowerCase(), { id: u.id, fullName: u.name, email: u.email, isActive: true }]));
  const streamByName = new Map(streams.map((s) => [s.name.toLowerCase(), { id: s.id, name: s.name }]));
  const ctx: MarkdownContext = {
    realmUrl: REALM_URL,
    userByName: (n) => byName.get(n.toLowerCase()),
    userById: () => undefined,
    groupByName: () => undefined,
    streamByName: (n) => streamByName.get(n.toLowerCase()),
    streamById: () => undefined,
    realmEmoji: () => undefined,
    linkifiers: [],
  };
  for (let i = 0; i < 200; i++) {
    const t = plainText();
    if (renderMarkdown(t, ctx).html !== plainHtml(t)) throw new Error(`plain text renders differently: ${t}`);
  }

  const pickStream = weighted(plans.map((p) => p.weight));
  const topics = streams.map(() => [] as string[]);
  const dmRecipients = new Map<string, number>();
  const rows = { userMessages: 0, unread: 0, reactions: 0, dmMessages: 0, topics: 0 };
  let readerUnread = 0;
  const firstMessage = ids.message;
  const gap = (2 * 365 * 86400) / m;
  let t = start;
  const t1 = performance.now();
  for (let i = 0; i < m; i++) {
    const id = ids.message++;
    t += -Math.log(1 - rand()) * gap;
    const isDm = rand() < DM_SHARE;
    let receivers: number[];
    let sender: number;
    let recipientId: number;
    let streamIndex = -1;
    let topic = '';
    if (isDm) {
      // Mostly one-to-one; some group conversations. The reader gets its share and a bit more.
      const size2 = rand() < 0.8 ? 2 : 3 + Math.floor(rand() * 3);
      const members = sample(users.length, size2, rand() < 0.02 ? [1] : []).map((n) => users[n]!.id);
      sender = members[members.length - 1]!;
      receivers = members;
      const key = dmKey(members);
      let r = dmRecipients.get(key);
      if (r === undefined) {
        r = ids.recipient++;
        dmRecipients.set(key, r);
        w.add('recipients', { id: r, realm_id: realmId, type: 3, stream_id: null, dm_key: key });
      }
      recipientId = r;
      rows.dmMessages++;
    } else {
      streamIndex = pickStream();
      const s = streams[streamIndex]!;
      const ts = topics[streamIndex]!;
      const r = rand();
      // Conversations run in bursts: mostly the current topic, sometimes a recent one, now and then a new one.
      if (ts.length === 0 || r > 0.92) {
        ts.push(topicName());
        rows.topics++;
        if (ts.length > 12) ts.shift();
      } else if (r > 0.75) {
        ts.push(ts.splice(Math.floor(rand() * ts.length), 1)[0]!);
      }
      topic = ts[ts.length - 1]!;
      sender = s.pick();
      receivers = s.subs;
      recipientId = s.recipientId;
    }
    let content: string;
    let html: string;
    let mentioned: number[] = [];
    let links = 0;
    if (rand() < RICH_SHARE) {
      const mention = byName.get(fullName(1 + Math.floor(rand() * (users.length - 1))).toLowerCase())!;
      content = richText(mention.fullName, streams[Math.floor(rand() * streams.length)]!.name);
      const r = renderMarkdown(content, ctx);
      html = r.html;
      mentioned = r.mentionedUserIds;
      links = r.links.length;
    } else {
      content = plainText();
      html = plainHtml(content);
    }
    w.add('messages', {
      id, realm_id: realmId, sender_id: sender, recipient_id: recipientId, stream_id: isDm ? null : streams[streamIndex]!.id, topic, content,
      rendered_content: html, rendered_content_version: 1, date_sent: Math.floor(t), last_edit_time: null, edit_history: null, client: 'website',
      is_me_message: 0, has_link: links > 0 ? 1 : 0, has_attachment: 0, has_image: 0,
    });
    const muted = isDm ? null : streams[streamIndex]!.muted;
    for (const u of receivers) {
      let flags = u === sender || i < (muted?.has(u) ? Math.min(mutedReadBelow, readBelow.get(u)!) : readBelow.get(u)!) ? FLAG_BITS.read : 0;
      if (mentioned.includes(u)) flags |= FLAG_BITS.mentioned;
      if (rand() < 0.0005) flags |= FLAG_BITS.starred;
      if (!(flags & FLAG_BITS.read)) {
        rows.unread++;
        if (u === reader.id) readerUnread++;
      }
      w.userMessage(u, id, flags);
    }
    rows.userMessages += receivers.length;
    if (!isDm && rand() < 0.02) {
      for (const n of sample(receivers.length, Math.min(receivers.length, 1 + Math.floor(rand() * 3)))) {
        const [name, code] = pick(REACTIONS);
        w.add('reactions', { id: ids.reaction++, message_id: id, user_id: receivers[n]!, emoji_name: name, emoji_code: code, reaction_type: 'unicode_emoji' });
        rows.reactions++;
      }
    }
    if ((i + 1) % BATCH === 0) {
      await w.flush();
      if ((i + 1) % (BATCH * 20) === 0) log(`${i + 1} messages, ${rows.userMessages} user_messages rows, ${Math.round((i + 1) / ((performance.now() - t1) / 1000))} messages/s`);
    }
  }
  // What the first message to a stream sets when it is sent.
  await w.exec(`update streams set first_message_id = (select min(m.id) from messages m where m.stream_id = streams.id) where first_message_id is null and realm_id = ${realmId}`);
  if (!databaseUrl) {
    // What the server indexes in batches after sends (src/db/pending-user-messages.ts).
    await w.exec('insert into messages_fts (rowid, topic, content) select id, topic, content from messages where id > (select up_to from search_indexed) order by id');
    await w.exec('update search_indexed set up_to = (select coalesce(max(id), 0) from messages)');
  } else {
    // Rows were inserted with their IDs: move each table's sequence past them.
    for (const table of ['users', 'streams', 'recipients', 'subscriptions', 'messages', 'reactions']) {
      await w.exec(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`);
    }
    // Vacuumed as well as analysed: a fresh build's autovacuum would otherwise run under the
    // benchmark's first measurements (the copies taken from it are made from the same pages).
    await w.exec('vacuum analyze');
  }
  await w.close();
  const buildSeconds = Math.round((performance.now() - t0) / 100) / 10;
  const subscriberCount = (s: (typeof streams)[number]) => s.subs.length;
  const org: Organization = {
    size,
    dataDir,
    databaseUrl,
    password: PASSWORD,
    owner,
    reader: { id: reader.id, email: reader.email, streams: streams.filter((s) => s.subs.includes(reader.id)).length, unread: readerUnread },
    everyone: { id: streams[0]!.id, name: streams[0]!.name, subscribers: subscriberCount(streams[0]!) },
    fifty: { id: streams[1]!.id, name: streams[1]!.name, subscribers: subscriberCount(streams[1]!) },
    users: users.map((u) => ({ id: u.id, email: u.email })),
    rows,
    buildSeconds,
    buildCpuSeconds: Math.round((process.cpuUsage(cpu0).user + process.cpuUsage(cpu0).system) / 1e5) / 10,
  };
  log(`built in ${buildSeconds} s, ${org.buildCpuSeconds} s of CPU (messages ${firstMessage}..${ids.message - 1})`);
  return org;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const t0 = performance.now();
  const org = await generateOrganization();
  const { users: _users, ...summary } = org;
  console.log(JSON.stringify({ ...summary, secondsThisRun: Math.round((performance.now() - t0) / 100) / 10 }, null, 2));
}
