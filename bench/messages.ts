// Message reads and edits on a big database. Builds it with direct batched inserts (not through
// HTTP), then measures over real HTTP requests:
//   GET /messages (100 messages before anchor=newest) with stream and with stream+topic narrows,
//   search (a word; a word in a stream), and moving a 1,000-message topic (topic edit, stream move).
// Run: npx tsx bench/messages.ts [--messages 1000000] [--users 1000] [--streams 200]
//        [--subscribers 10] [--requests 200] [--data-dir DIR]   (SQLite; DATABASE_URL is not used)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { createServer } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { checkCreateRealm } from '../src/actions/realms.ts';
import { createLogger } from '../src/log.ts';
import { BENCH_RATE_LIMITS } from './_limits.ts';
import { registerSqliteFunctions } from '../src/db/database.ts';
import { MADE_UP_WORDS, seeded, zipfWord } from './_org-data.ts';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const num = (k: string, d: number) => Number(args.get(k) ?? d);
const N_MESSAGES = num('messages', 1_000_000);
const N_USERS = num('users', 1000);
const N_STREAMS = num('streams', 200);
const SUBS_PER_STREAM = num('subscribers', 10); // besides the owner, who is in every stream
const TOPICS_PER_STREAM = 50;
const REQUESTS = num('requests', 200);
const MOVE_TOPIC_SIZE = 1000;

// Deterministic pseudo-random numbers, so runs are comparable; the searched words are the standard
// organization's made-up ones (its English words are left out, so figures stay comparable).
const rand = seeded(42);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const VOCAB = MADE_UP_WORDS;
const sentence = (n: number) => Array.from({ length: n }, () => zipfWord(VOCAB, rand)).join(' ');

const dataDir = args.get('data-dir') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
const config = loadConfig({ host: '127.0.0.1', port: '0', 'data-dir': dataDir }, { ...BENCH_RATE_LIMITS, EXTERNAL_HOST: 'localhost' });
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);

async function build(): Promise<{ apiKey: string; email: string }> {
  const server = await createServer(config, { log: createLogger('silent') });
  const r = await checkCreateRealm(server.app, { name: 'Bench', subdomain: '', ownerEmail: 'owner@example.com', ownerName: 'Owner', ownerPassword: 'bench-password' });
  await server.close();

  const db = new SQLite(path.join(dataDir, 'parley.db'));
  registerSqliteFunctions(db);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF'); // a bulk load: durability of the build itself does not matter
  const now = Math.floor(Date.now() / 1000);
  const t0 = Date.now();
  db.transaction(() => {
    const user = db.prepare(
      `insert into users (realm_id, email, delivery_email, full_name, role, is_active, api_key, date_joined) values (?, ?, ?, ?, 400, 1, ?, ?)`,
    );
    for (let i = 1; i < N_USERS; i++) user.run(r.realmId, `user${i}@example.com`, `user${i}@example.com`, `User ${i}`, `benchkey${i}`.padEnd(32, 'x'), now - 86400 * 365);
    const stream = db.prepare(`insert into streams (realm_id, name, description, rendered_description, date_created, can_remove_subscribers_group_id) values (?, ?, '', '', ?, 1)`);
    const recipient = db.prepare(`insert into recipients (realm_id, type, stream_id) values (?, 2, ?)`);
    const setRecipient = db.prepare(`update streams set recipient_id = ? where id = ?`);
    const sub = db.prepare(`insert or ignore into subscriptions (user_id, stream_id, active, color) values (?, ?, 1, '#c2c2c2')`);
    const userIds = (db.prepare(`select id from users where realm_id = ?`).all(r.realmId) as { id: number }[]).map((u) => u.id);
    for (let s = 0; s < N_STREAMS; s++) {
      const sid = Number(stream.run(r.realmId, `stream ${s}`, now - 86400 * 365).lastInsertRowid);
      const rid = Number(recipient.run(r.realmId, sid).lastInsertRowid);
      setRecipient.run(rid, sid);
      sub.run(r.userId, sid);
      for (let k = 0; k < SUBS_PER_STREAM; k++) sub.run(pick(userIds), sid);
    }
  })();
  const streams = db.prepare(`select s.id, s.recipient_id from streams s where s.realm_id = ? and s.name like 'stream %' order by s.id`).all(r.realmId) as { id: number; recipient_id: number }[];
  const subsOf = new Map<number, number[]>();
  for (const row of db.prepare(`select stream_id, user_id from subscriptions where active = 1`).all() as { stream_id: number; user_id: number }[]) {
    subsOf.set(row.stream_id, [...(subsOf.get(row.stream_id) ?? []), row.user_id]);
  }
  log(`users, streams, subscriptions: ${Date.now() - t0} ms`);

  const msg = db.prepare(
    `insert into messages (realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content, date_sent, client) values (?, ?, ?, ?, ?, ?, ?, ?, 'bench')`,
  );
  const um = db.prepare(`insert into user_messages (user_id, message_id, flags) values (?, ?, ?)`);
  const BATCH = 20_000;
  const moveStream = streams[0]!;
  const t1 = Date.now();
  for (let done = 0; done < N_MESSAGES; done += BATCH) {
    db.transaction(() => {
      for (let i = done; i < Math.min(done + BATCH, N_MESSAGES); i++) {
        // The last MOVE_TOPIC_SIZE messages of the first stream form the topic to move.
        const inMoveTopic = i >= N_MESSAGES - MOVE_TOPIC_SIZE;
        const s = inMoveTopic ? moveStream : pick(streams);
        const subs = subsOf.get(s.id)!;
        const topic = inMoveTopic ? 'move me' : `topic ${Math.floor(rand() * TOPICS_PER_STREAM)}`;
        const content = sentence(8 + Math.floor(rand() * 25));
        const sender = pick(subs);
        const id = Number(msg.run(1, sender, s.recipient_id, s.id, topic, content, `<p>${content}</p>`, now - (N_MESSAGES - i) * 10).lastInsertRowid);
        for (const u of subs) um.run(u, id, u === sender || rand() < 0.9 ? 1 : 0);
      }
    })();
    if ((done / BATCH) % 10 === 0) log(`messages: ${done + BATCH} (${Math.round((done + BATCH) / ((Date.now() - t1) / 1000))}/s)`);
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('analyze');
  db.close();
  log(`messages built: ${N_MESSAGES} in ${Math.round((Date.now() - t1) / 1000)} s`);
  return { apiKey: r.apiKey, email: 'owner@example.com' };
}

function stats(samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  return `median ${q(0.5).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms (n=${s.length})`;
}

async function measure(account: { apiKey: string; email: string }): Promise<void> {
  const server = await createServer({ ...config }, { log: createLogger('error') }); // 500s are logged
  const base = await server.listen();
  const auth = 'Basic ' + Buffer.from(`${account.email}:${account.apiKey}`).toString('base64');
  const call = async (method: string, p: string, params: Record<string, unknown>) => {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    const url = method === 'GET' ? `${base}/api/v1${p}?${form}` : `${base}/api/v1${p}`;
    const start = performance.now();
    const res = await fetch(url, {
      method,
      headers: { authorization: auth, ...(method === 'GET' ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
      body: method === 'GET' ? undefined : form.toString(),
    });
    const body = (await res.json()) as { result: string; messages?: unknown[]; msg: string };
    const ms = performance.now() - start;
    if (body.result !== 'success') throw new Error(`${method} ${p}: ${body.msg}`);
    return { ms, body };
  };
  const streamName = () => `stream ${Math.floor(rand() * N_STREAMS)}`;
  const run = async (label: string, make: () => Record<string, unknown>) => {
    for (let i = 0; i < 10; i++) await call('GET', '/messages', make()); // warm-up
    const samples: number[] = [];
    let returned = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const r = await call('GET', '/messages', make());
      samples.push(r.ms);
      returned += r.body.messages?.length ?? 0;
    }
    log(`${label}: ${stats(samples)}, ${Math.round(returned / REQUESTS)} messages/request`);
  };
  const fetch100 = (narrow: unknown[]) => ({ anchor: 'newest', num_before: 100, num_after: 0, narrow });
  await run('GET /messages stream narrow', () => fetch100([['stream', streamName()]]));
  await run('GET /messages stream+topic narrow', () => fetch100([['stream', streamName()], ['topic', `topic ${Math.floor(rand() * TOPICS_PER_STREAM)}`]]));
  await run('GET /messages no narrow (own history)', () => fetch100([]));
  // Search words of several frequencies: from the 20 most common to rare ones.
  await run('search, one word', () => fetch100([['search', VOCAB[Math.floor(Math.pow(rand(), 0.5) * 2000)]!]]));
  await run('search, two words', () => fetch100([['search', `${VOCAB[Math.floor(rand() * 300)]!} ${VOCAB[Math.floor(rand() * 300)]!}`]]));
  await run('search in a stream', () => fetch100([['stream', streamName()], ['search', VOCAB[Math.floor(rand() * 1000)]!]]));

  // The topic to move is 'move me' in stream 0, or after an earlier run 'moved' in stream 1.
  const streamIdOf = async (name: string) =>
    ((await call('GET', '/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [['stream', name]] })).body.messages as { stream_id: number }[])[0]!.stream_id;
  let from = { stream: 'stream 0', topic: 'move me' };
  let to = { stream: 'stream 1', topic: 'moved' };
  let first = await call('GET', '/messages', { anchor: 'oldest', num_before: 0, num_after: 1, narrow: [['stream', from.stream], ['topic', from.topic]] });
  if ((first.body.messages as unknown[]).length === 0) {
    [from, to] = [to, from];
    first = await call('GET', '/messages', { anchor: 'oldest', num_before: 0, num_after: 1, narrow: [['stream', from.stream], ['topic', from.topic]] });
  }
  const target = (first.body.messages as { id: number }[])[0]!.id;
  const quiet = { propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false };
  const topicEdit = await call('PATCH', `/messages/${target}`, { topic: to.topic, ...quiet });
  log(`edit topic of a ${MOVE_TOPIC_SIZE}-message topic (change_all): ${topicEdit.ms.toFixed(0)} ms`);
  const move = await call('PATCH', `/messages/${target}`, { stream_id: await streamIdOf(to.stream), ...quiet });
  log(`move a ${MOVE_TOPIC_SIZE}-message topic to another stream (change_all): ${move.ms.toFixed(0)} ms`);
  await server.close();
}

log(`database in ${dataDir}: ${N_MESSAGES} messages, ${N_USERS} users, ${N_STREAMS} streams, ${SUBS_PER_STREAM}+1 subscribers per stream`);
const existing = args.has('reuse');
const account = existing ? { apiKey: args.get('reuse')!, email: 'owner@example.com' } : await build();
log(`owner API key: ${account.apiKey} (rerun the measurements with --data-dir ${dataDir} --reuse KEY)`);
await measure(account);
