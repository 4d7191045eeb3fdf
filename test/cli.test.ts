import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { temporaryPostgres } from './helpers/server.ts';
import { compiledIsCurrent } from '../bin/compiled.js';

const run = promisify(execFile);
const bin = path.resolve('bin/parley.js');

test('create-realm --json prints one object and nothing else', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cli-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  // On the database the suite runs on: a fresh PostgreSQL database, or SQLite in `dir`.
  const pg = process.env.TEST_DATABASE_URL ? await temporaryPostgres(process.env.TEST_DATABASE_URL) : null;
  if (pg) t.after(() => pg.drop());
  const env = { ...process.env, DATABASE_URL: pg?.url ?? '' };
  const { stdout } = await run('node', [bin, 'create-realm', '--name', 'Acme', '--subdomain', 'acme', '--owner-email', 'Boss@Acme.test', '--owner-name', 'Boss', '--data-dir', dir, '--json'], { env });
  const out = JSON.parse(stdout) as Record<string, unknown>;
  assert.deepEqual(Object.keys(out).sort(), ['api_key', 'email', 'realm_id', 'realm_url', 'user_id']);
  assert.equal(out.email, 'boss@acme.test');
  assert.equal(out.realm_url, 'http://acme.localhost:9991');
  assert.match(String(out.api_key), /^[A-Za-z0-9]{32}$/);
  const dup = await run('node', [bin, 'create-realm', '--name', 'Acme', '--subdomain', 'acme', '--owner-email', 'x@acme.test', '--owner-name', 'X', '--data-dir', dir], { env }).catch((e: { code: number; stderr: string }) => e);
  assert.equal((dup as { code: number }).code, 2);
  assert.match((dup as { stderr: string }).stderr, /already in use/);
});

test('bin/parley.js takes dist/ only when every source file has a compiled copy at least as new', (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bin-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const write = (file: string, seconds: number) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), '');
    fs.utimesSync(path.join(root, file), seconds, seconds);
  };
  write('src/cli.ts', 1000);
  write('src/db/x.ts', 1000);
  write('src/db/x.d.ts', 5000);
  assert.equal(compiledIsCurrent(root), false, 'never built');
  write('dist/cli.js', 2000);
  write('dist/db/x.js', 2000);
  assert.equal(compiledIsCurrent(root), true);
  write('src/db/x.ts', 3000);
  assert.equal(compiledIsCurrent(root), false, 'a source edited after the build');
  write('dist/db/x.js', 3000);
  write('src/db/y.ts', 1000);
  assert.equal(compiledIsCurrent(root), false, 'a source file without a compiled copy');
});

test('the compiled server (dist/) starts through bin/parley.js, answers server_settings, and finds its data files', async (t) => {
  // `npm install` builds dist/ (the prepare script); after an edit, this test builds it again.
  if (!compiledIsCurrent(path.resolve('.'))) await run('npm', ['run', 'build']);
  assert.equal(compiledIsCurrent(path.resolve('.')), true);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cli-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn('node', [bin, 'serve', '--port', '0', '--data-dir', dir, '--create-first-realm'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.after(() => child.kill('SIGKILL'));
  let out = '';
  child.stdout.setEncoding('utf8');
  const serving = await new Promise<{ url: string; compiled: boolean }>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.includes('"Parley is serving"'));
      if (line) resolve(JSON.parse(line) as { url: string; compiled: boolean });
    });
    void exited.then((code) => reject(new Error(`the server exited (${code}): ${out}`)));
  });
  assert.equal(serving.compiled, true, 'bin/parley.js ran dist/');
  const settings = await fetch(`${serving.url}/api/v1/server_settings`);
  assert.equal(settings.status, 200);
  assert.equal(((await settings.json()) as { result: string }).result, 'success');
  // Emoji names (emoji-datasource) and the search stopwords (resources/) load from compiled code.
  const apiKey = /API key: +(\S+)/.exec(out)?.[1];
  assert.ok(apiKey, out);
  const headers = { authorization: 'Basic ' + Buffer.from(`owner@example.com:${apiKey}`).toString('base64') };
  const sent = await fetch(`${serving.url}/api/v1/messages`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ type: 'private', to: JSON.stringify(['owner@example.com']), content: 'the :tada: launch' }),
  });
  assert.equal(sent.status, 200, await sent.clone().text());
  const q = new URLSearchParams({ anchor: 'newest', num_before: '5', num_after: '0', narrow: JSON.stringify([['search', 'the launch']]) });
  const found = (await (await fetch(`${serving.url}/api/v1/messages?${q}`, { headers })).json()) as { messages: { content: string }[] };
  assert.equal(found.messages.length, 1);
  assert.match(found.messages[0]!.content, /emoji-1f389/);
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
});
