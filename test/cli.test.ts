import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const bin = path.resolve('bin/parley.js');

test('create-realm --json prints one object and nothing else', { skip: process.env.TEST_DATABASE_URL ? 'SQLite only' : false }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cli-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const { stdout } = await run('node', [bin, 'create-realm', '--name', 'Acme', '--subdomain', 'acme', '--owner-email', 'Boss@Acme.test', '--owner-name', 'Boss', '--data-dir', dir, '--json'], {
    env: { ...process.env, DATABASE_URL: '' },
  });
  const out = JSON.parse(stdout) as Record<string, unknown>;
  assert.deepEqual(Object.keys(out).sort(), ['api_key', 'email', 'realm_id', 'realm_url', 'user_id']);
  assert.equal(out.email, 'boss@acme.test');
  assert.equal(out.realm_url, 'http://acme.localhost:9991');
  assert.match(String(out.api_key), /^[A-Za-z0-9]{32}$/);
  const dup = await run('node', [bin, 'create-realm', '--name', 'Acme', '--subdomain', 'acme', '--owner-email', 'x@acme.test', '--owner-name', 'X', '--data-dir', dir], {
    env: { ...process.env, DATABASE_URL: '' },
  }).catch((e: { code: number; stderr: string }) => e);
  assert.equal((dup as { code: number }).code, 2);
  assert.match((dup as { stderr: string }).stderr, /already in use/);
});
