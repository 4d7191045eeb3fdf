import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { startServer, type TestServer } from '../helpers/server.ts';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' blob:; " +
  "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-3f9a.js"></script></head><body></body></html>\n';
const SCRIPT = 'export function hello(name) { return "hello " + name; }\n'.repeat(200);

/** A built app in a temporary folder, with a secret next to it that must never be served. */
function fixture(t: { after(fn: () => void): void }, withIndex = true): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-web-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const dist = path.join(root, 'dist');
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.mkdirSync(path.join(dist, 'sounds'));
  if (withIndex) fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dist, 'assets', 'index-3f9a.js'), SCRIPT);
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
  fs.writeFileSync(path.join(dist, 'sounds', 'ding.mp3'), Buffer.from([0xff, 0xfb, 0x90, 0x00, 1, 2, 3]));
  fs.writeFileSync(path.join(dist, '.env'), 'SECRET=1');
  fs.writeFileSync(path.join(root, 'package.json'), '{"secret": true}');
  return dist;
}

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** Sends the path exactly as given (URL parsing would resolve its dot segments first). */
function get(s: TestServer, rawPath: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  const { hostname, port } = new URL(s.baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path: rawPath, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

test('index.html is served at / and /index.html, not cached without revalidation, with the CSP', async (t) => {
  const s = await startServer({ env: { WEB_DIR: fixture(t) } });
  t.after(() => s.close());
  for (const p of ['/', '/index.html']) {
    const res = await get(s, p);
    assert.equal(res.status, 200);
    assert.equal(res.body.toString(), INDEX);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.equal(res.headers['content-security-policy'], CSP);
    assert.ok(res.headers.etag);
    assert.ok(res.headers['last-modified']);
    const again = await get(s, p, { 'if-none-match': res.headers.etag! });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
  }
  const head = await get(s, '/', {}, 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.body.length, 0);
});

test('hashed assets are immutable, and their brotli and gzip bodies decode to the file', async (t) => {
  const s = await startServer({ env: { WEB_DIR: fixture(t) } });
  t.after(() => s.close());
  const plain = await get(s, '/assets/index-3f9a.js');
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal(plain.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.headers.vary, 'Accept-Encoding');
  assert.equal(plain.headers['content-security-policy'], undefined);
  assert.equal(plain.body.toString(), SCRIPT);

  const br = await get(s, '/assets/index-3f9a.js', { 'accept-encoding': 'gzip, deflate, br' });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.ok(br.body.length < SCRIPT.length / 10);
  assert.equal(zlib.brotliDecompressSync(br.body).toString(), SCRIPT);

  const gz = await get(s, '/assets/index-3f9a.js', { 'accept-encoding': 'gzip, br;q=0' });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.equal(zlib.gunzipSync(gz.body).toString(), SCRIPT);
  // Kept in memory: the second answer is the same bytes.
  assert.deepEqual((await get(s, '/assets/index-3f9a.js', { 'accept-encoding': 'br' })).body, br.body);
});

test('other files of the build are served for an hour, with validators', async (t) => {
  const s = await startServer({ env: { WEB_DIR: fixture(t) } });
  t.after(() => s.close());
  const icon = await get(s, '/favicon.svg');
  assert.equal(icon.status, 200);
  assert.equal(icon.headers['content-type'], 'image/svg+xml');
  assert.equal(icon.headers['cache-control'], 'public, max-age=3600');
  assert.ok(icon.headers.etag && icon.headers['last-modified']);
  const sound = await get(s, '/sounds/ding.mp3', { 'accept-encoding': 'br, gzip' });
  assert.equal(sound.status, 200);
  assert.equal(sound.headers['content-type'], 'audio/mpeg');
  assert.equal(sound.headers['content-encoding'], undefined);
  assert.deepEqual([...sound.body], [0xff, 0xfb, 0x90, 0x00, 1, 2, 3]);
});

test('a file changed on disk is served changed', async (t) => {
  const dir = fixture(t);
  const s = await startServer({ env: { WEB_DIR: dir } });
  t.after(() => s.close());
  const before = await get(s, '/');
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX.replace('<body>', '<body><main></main>'));
  const after = await get(s, '/');
  assert.match(after.body.toString(), /<main>/);
  assert.notEqual(after.headers.etag, before.headers.etag);
});

test('paths out of the build folder, dotfiles and odd encodings are refused', async (t) => {
  const s = await startServer({ env: { WEB_DIR: fixture(t) } });
  t.after(() => s.close());
  const attempts = [
    '/assets/../package.json',
    '/../package.json',
    '/assets/%2e%2e/package.json',
    '/assets/..%2fpackage.json',
    '/assets/%2e%2e%2f%2e%2e%2fpackage.json',
    '/%2e%2e%2fpackage.json',
    '/..%5cpackage.json',
    '/assets/%252e%252e/package.json',
    '/assets/index-3f9a.js%00.html',
    '/assets//index-3f9a.js',
    '/.env',
    '/%2eenv',
    '/assets/%zz',
  ];
  for (const p of attempts) {
    const res = await get(s, p);
    assert.ok(res.status >= 400 && res.status < 500, `${p} answered ${res.status}`);
    assert.doesNotMatch(res.body.toString(), /secret|SECRET/, p);
  }
});

test('API paths keep the API 404; an unknown root file is a 404 too', async (t) => {
  const s = await startServer({ env: { WEB_DIR: fixture(t) } });
  t.after(() => s.close());
  for (const p of ['/api/v1/no_such_thing', '/json/no_such_thing', '/api/v1/users/me/extra/parts', '/nothing-here.js']) {
    const res = await get(s, p);
    assert.equal(res.status, 404, p);
    assert.deepEqual(JSON.parse(res.body.toString()), { result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
  }
});

test('without a build, / says how to build the client', async (t) => {
  const s = await startServer({ env: { WEB_DIR: fixture(t, false) } });
  t.after(() => s.close());
  const res = await get(s, '/');
  assert.equal(res.status, 503);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(res.headers['content-security-policy'], CSP);
  assert.match(res.body.toString(), /npm run build:web/);
  assert.doesNotMatch(res.body.toString(), /<script/);
  // The API is untouched.
  assert.equal((await s.api('GET', '/api/v1/users/me')).status, 200);
});
