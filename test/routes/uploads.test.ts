import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import { startServer, type Account, type TestServer } from '../helpers/server.ts';
import { claimAttachments, emitAttachmentUpdates } from '../../src/actions/uploads.ts';
import { runAction } from '../../src/actions/action.ts';
import { storedFilePath } from '../../src/lib/uploads.ts';
import { checkResponse } from '../helpers/openapi.ts';

const MiB = 1024 * 1024;

function auth(as: Account): string {
  return 'Basic ' + Buffer.from(`${as.email}:${as.apiKey}`).toString('base64');
}

/** Uploads with a multipart body; the part is named `filename` as in the reference's sample. */
async function upload(s: TestServer, as: Account, name: string, content: string | Buffer, type = 'text/plain', part = 'filename') {
  const form = new FormData();
  form.set(part, new Blob([typeof content === 'string' ? content : new Uint8Array(content)], { type }), name);
  const res = await fetch(`${s.baseUrl}/api/v1/user_uploads`, { method: 'POST', headers: { authorization: auth(as) }, body: form });
  const body = (await res.json()) as Record<string, any>;
  if (res.status === 200) assert.deepEqual(checkResponse('POST', '/api/v1/user_uploads', body), []);
  return { status: res.status, body };
}

async function fetchFile(s: TestServer, as: Account | null, uri: string) {
  const res = await fetch(s.baseUrl + uri, { headers: as ? { authorization: auth(as) } : {} });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** Links uploads to a message as sending does (the send path calls claimAttachments). */
async function claim(s: TestServer, messageId: number, paths: string[]) {
  const db = s.server.app.db.kysely;
  const message = await db.selectFrom('messages').selectAll().where('id', '=', messageId).executeTakeFirstOrThrow();
  return db.transaction().execute((tx) => claimAttachments(tx, message, paths));
}

test('upload a file: the uploader gets its URL and an attachment event, and can fetch it', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  s.published.length = 0;
  const up = await upload(s, s.owner, 'notes on ü.txt', 'hello file');
  assert.equal(up.status, 200);
  assert.match(up.body.uri, /^\/user_uploads\/\d+\/[\w-]+\/notes-on-%C3%BC\.txt$/);
  assert.equal(up.body.url, up.body.uri);
  assert.equal(up.body.filename, 'notes-on-ü.txt');
  assert.equal(s.published.length, 1);
  const ev = s.published[0]!;
  assert.deepEqual(ev.userIds, [s.owner.id]);
  assert.equal(ev.event.type, 'attachment');
  assert.equal(ev.event.op, 'add');
  assert.equal(ev.event.upload_space_used, 10);
  assert.deepEqual({ ...ev.event.attachment, id: 0, create_time: 0 }, { id: 0, name: 'notes-on-ü.txt', path_id: decodeURIComponent(up.body.uri.slice('/user_uploads/'.length)), size: 10, create_time: 0, messages: [] });

  const file = await fetchFile(s, s.owner, up.body.uri);
  assert.equal(file.status, 200);
  assert.equal(file.body.toString(), 'hello file');
  assert.equal(file.headers.get('content-type'), 'text/plain; charset=utf-8');
  assert.equal(file.headers.get('content-disposition'), "inline; filename=\"notes-on-_.txt\"; filename*=UTF-8''notes-on-%C3%BC.txt");
  assert.equal(file.headers.get('x-content-type-options'), 'nosniff');

  const list = await s.ok('GET', '/api/v1/attachments');
  assert.equal(list.upload_space_used, 10);
  assert.deepEqual(list.attachments, [ev.event.attachment]);

  // The part's name does not matter.
  assert.equal((await upload(s, s.owner, 'b.txt', 'x', 'text/plain', 'file')).status, 200);
});

test('uploaded files: unsafe types are downloads, safe images show inline', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const cases: [string, string, string, string][] = [
    ['page.html', 'text/html', 'application/octet-stream', 'attachment'],
    ['drawing.svg', 'image/svg+xml', 'application/octet-stream', 'attachment'],
    ['pic.png', 'image/png', 'image/png', 'inline'],
    ['odd', 'not a type', 'application/octet-stream', 'attachment'],
  ];
  for (const [name, type, served, disposition] of cases) {
    const up = await upload(s, s.owner, name, '<script>alert(1)</script>', type);
    const file = await fetchFile(s, s.owner, up.body.uri);
    assert.equal(file.headers.get('content-type'), served, name);
    assert.ok(file.headers.get('content-disposition')!.startsWith(disposition + ';'), name);
    assert.match(file.headers.get('content-security-policy')!, /sandbox/);
  }
});

test('access: only the uploader until a message links the file, then whoever can read that message', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  const up = await upload(s, s.owner, 'secret.txt', 'for alice');
  assert.equal((await fetchFile(s, alice, up.body.uri)).status, 404);
  assert.equal((await fetchFile(s, null, up.body.uri)).status, 401);

  const dm = await s.ok('POST', '/api/v1/messages', { type: 'direct', to: [alice.id], content: `[secret.txt](${up.body.uri})` });
  s.published.length = 0;
  const linked = await claim(s, dm.id, [up.body.uri]);
  assert.equal(linked.length, 1);
  assert.equal((await fetchFile(s, alice, up.body.uri)).body.toString(), 'for alice');
  assert.equal((await fetchFile(s, bob, up.body.uri)).status, 404);
  const list = await s.ok('GET', '/api/v1/attachments');
  assert.deepEqual(list.attachments[0].messages.map((m: any) => m.id), [dm.id]);
  assert.equal(list.attachments[0].messages[0].date_sent % 1000, 0);

  // Bob cannot claim a file he cannot read; Alice can re-share it with him.
  const bobMsg = await s.ok('POST', '/api/v1/messages', { type: 'direct', to: [bob.id], content: up.body.uri }, bob);
  const none = await claim(s, bobMsg.id, [up.body.uri]);
  assert.deepEqual(none, []);
  assert.equal((await fetchFile(s, bob, up.body.uri)).status, 404);
  const reshare = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 'files', content: up.body.uri }, alice);
  await claim(s, reshare.id, [up.body.uri.slice(1)]);
  assert.equal((await fetchFile(s, bob, up.body.uri)).status, 200);
  // The owner's clients learn of the new link.
  const reshareRow = await s.server.app.db.kysely.selectFrom('messages').selectAll().where('id', '=', reshare.id).executeTakeFirstOrThrow();
  s.published.length = 0;
  await runAction(s.server.app, async (scope) => emitAttachmentUpdates(scope, reshareRow.realm_id, await claimAttachments(scope.tx, reshareRow, [up.body.uri])));
  assert.equal(s.published.length, 1);
  assert.deepEqual(s.published[0]!.userIds, [s.owner.id]);
  assert.deepEqual([s.published[0]!.event.type, s.published[0]!.event.op], ['attachment', 'update']);
  assert.deepEqual(s.published[0]!.event.attachment.messages.map((m: any) => m.id), [dm.id, reshare.id]);
  // A member who joins later can read the stream's history, hence the file.
  const carol = await s.createUser('Carol');
  assert.equal((await fetchFile(s, carol, up.body.uri)).status, 200);
});

test('paths outside the uploads, and unknown paths, are refused', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await upload(s, s.owner, 'a.txt', 'a');
  const port = new URL(s.baseUrl).port;
  const raw = (p: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: p, headers: { authorization: auth(s.owner), host: `localhost:${port}` } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  for (const p of ['/user_uploads/1/../../../etc/passwd', '/user_uploads/1/%2e%2e/%2e%2e/parley.db', '/user_uploads/1/x/..%2f..%2fparley.db', '/user_uploads/1/nope/a.txt']) {
    const res = await raw(p);
    assert.ok(res.status === 400 || res.status === 404, `${p}: ${res.status}`);
    assert.equal(JSON.parse(res.body).result, 'error');
  }
});

test('attachments: delete removes the file with an event; errors for unknown or foreign ones', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const up = await upload(s, s.owner, 'gone.txt', 'bye');
  const [att] = (await s.ok('GET', '/api/v1/attachments')).attachments;
  const foreign = await s.api('DELETE', `/api/v1/attachments/${att.id}`, {}, { as: alice });
  assert.deepEqual([foreign.status, foreign.body.code, foreign.body.msg], [400, 'BAD_REQUEST', 'Invalid attachment']);
  s.published.length = 0;
  await s.ok('DELETE', `/api/v1/attachments/${att.id}`);
  assert.deepEqual(s.published.map((p) => [p.event, p.userIds]), [[{ type: 'attachment', op: 'remove', attachment: { id: att.id }, upload_space_used: 0 }, [s.owner.id]]]);
  assert.equal((await fetchFile(s, s.owner, up.body.uri)).status, 404);
  assert.deepEqual(filesUnder(s.config.uploadsDir), []);
  const again = await s.api('DELETE', `/api/v1/attachments/${att.id}`);
  assert.deepEqual([again.status, again.body.msg], [400, 'Invalid attachment']);
  assert.deepEqual((await s.ok('GET', '/api/v1/attachments')).attachments, []);
});

test('upload without a file is refused', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const res = await s.api('POST', '/api/v1/user_uploads', { x: 'y' });
  assert.deepEqual([res.status, res.body.msg], [400, 'You must specify a file to upload']);
  const form = new FormData();
  form.set('note', 'just a field');
  const multi = await fetch(`${s.baseUrl}/api/v1/user_uploads`, { method: 'POST', headers: { authorization: auth(s.owner) }, body: form });
  assert.equal(multi.status, 400);
});

// The large uploads come from a child process, so that only the server's memory is measured
// here. It streams a multipart body of SIZE bytes of file content in 64 KiB chunks.
const CLIENT = `
import { Readable } from 'node:stream';
const [url, authorization, size] = process.argv.slice(1);
const boundary = 'parleyboundary';
const chunk = Buffer.alloc(64 * 1024, 0x61);
const body = Readable.from((function* () {
  yield Buffer.from('--' + boundary + '\\r\\nContent-Disposition: form-data; name="filename"; filename="big.bin"\\r\\nContent-Type: application/octet-stream\\r\\n\\r\\n');
  for (let left = Number(size); left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
  yield Buffer.from('\\r\\n--' + boundary + '--\\r\\n');
})());
const res = await fetch(url, { method: 'POST', headers: { authorization, 'content-type': 'multipart/form-data; boundary=' + boundary }, body: Readable.toWeb(body), duplex: 'half' });
process.stdout.write(JSON.stringify({ status: res.status, body: await res.json() }));
`;

async function streamUpload(s: TestServer, size: number): Promise<{ status: number; body: Record<string, any> }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', CLIENT, `${s.baseUrl}/api/v1/user_uploads`, auth(s.owner), String(size)]);
  return JSON.parse(stdout) as { status: number; body: Record<string, any> };
}

test('a 25 MiB upload is streamed to disk: memory grows far less than the file', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  // Young-generation collections while sampling, so the figures are memory held, not socket
  // chunks already written and waiting for a lazy collection.
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as (o: { type: 'minor' | 'major' }) => void;
  await streamUpload(s, MiB); // warm up the code paths
  gc({ type: 'major' });
  const before = process.memoryUsage();
  let peakHeld = 0;
  let peakRss = 0;
  const sampler = setInterval(() => {
    gc({ type: 'minor' });
    const m = process.memoryUsage();
    peakHeld = Math.max(peakHeld, m.heapUsed + m.arrayBuffers - before.heapUsed - before.arrayBuffers);
    peakRss = Math.max(peakRss, m.rss - before.rss);
  }, 10);
  const res = await streamUpload(s, 25 * MiB).finally(() => clearInterval(sampler));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const stored = (await s.ok('GET', '/api/v1/attachments')).attachments.filter((a: any) => a.name === 'big.bin');
  assert.deepEqual(stored.map((a: any) => a.size), [MiB, 25 * MiB]);
  assert.equal(fs.statSync(storedFilePath(s.config, stored[1].path_id)).size, 25 * MiB);
  t.diagnostic(`25 MiB upload: peak growth of heap + buffers ${(peakHeld / MiB).toFixed(1)} MiB, of RSS ${(peakRss / MiB).toFixed(1)} MiB`);
  assert.ok(peakHeld < 8 * MiB, `heap + buffers grew by ${peakHeld} bytes`);
  assert.ok(peakRss < 12 * MiB, `RSS grew by ${peakRss} bytes`);
});

test('an upload over the limit is refused with a clear error and leaves nothing on disk', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const res = await streamUpload(s, 25 * MiB + 1);
  assert.deepEqual([res.status, res.body.result, res.body.code, res.body.msg], [413, 'error', 'BAD_REQUEST', 'Uploaded file is larger than the allowed limit of 25 MiB']);
  assert.deepEqual(filesUnder(s.config.uploadsDir), []);
  assert.deepEqual((await s.ok('GET', '/api/v1/attachments')).attachments, []);
});

test('the upload limit is configurable', async (t) => {
  const s = await startServer({ env: { MAX_FILE_UPLOAD_SIZE_MIB: '1' } });
  t.after(() => s.close());
  assert.equal((await upload(s, s.owner, 'ok.bin', Buffer.alloc(MiB))).status, 200);
  const big = await upload(s, s.owner, 'big.bin', Buffer.alloc(MiB + 10));
  assert.deepEqual([big.status, big.body.msg], [413, 'Uploaded file is larger than the allowed limit of 1 MiB']);
  assert.equal(filesUnder(s.config.uploadsDir).length, 1);
});

test('old temporary files of interrupted uploads are removed, recent ones kept', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const { removeStaleTempFiles } = await import('../../src/lib/uploads.ts');
  const tmp = path.join(s.config.uploadsDir, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  fs.writeFileSync(path.join(tmp, 'old'), 'x');
  fs.writeFileSync(path.join(tmp, 'new'), 'x');
  const twoDaysAgo = new Date(Date.now() - 2 * 86400 * 1000);
  fs.utimesSync(path.join(tmp, 'old'), twoDaysAgo, twoDaysAgo);
  // The server's own pass at start may be running too, so only the outcome is certain.
  await removeStaleTempFiles(s.config);
  assert.deepEqual(fs.readdirSync(tmp), ['new']);
});
