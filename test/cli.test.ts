import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { temporaryPostgres } from './helpers/server.ts';

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
