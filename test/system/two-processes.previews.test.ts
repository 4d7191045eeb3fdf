// Previews with two `parley serve` processes on PostgreSQL and Redis: a preview fetched by the
// process that took the send reaches a client of the other process, and the image proxy URL
// one process signed is served by the other (the key is shared through the database).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { temporaryPostgres } from '../helpers/server.ts';
import { caller, freePort, runCli, serve, stopped } from '../helpers/processes.ts';
import { PNG, startSite } from '../helpers/site.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

test('two processes: the preview update reaches the other process, which also serves the signed image', { skip: adminUrl ? false : 'needs TEST_DATABASE_URL (PostgreSQL) and Redis', timeout: 120_000 }, async (t) => {
  const site = await startSite({
    '/page': { body: '<html><head><meta property="og:title" content="Shared"><meta property="og:image" content="/i.png"></head></html>', delayMs: 200 },
    '/i.png': { headers: { 'content-type': 'image/png' }, body: PNG },
  });
  const db = await temporaryPostgres(adminUrl!);
  const name = new URL(db.url).pathname.slice(1);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-prev-'));
  const env = { DATA_DIR: dataDir, DATABASE_URL: db.url, REDIS_URL: redisUrl, REDIS_PREFIX: name, EXTERNAL_HOST: 'localhost', PREVIEW_ALLOW_PRIVATE: 'true' };
  const children: ChildProcess[] = [];
  t.after(async () => {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map(stopped));
    await db.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await site.close();
  });
  const realm = JSON.parse(await runCli(['create-realm', '--name', 'Two', '--owner-email', 'owner@two.test', '--owner-name', 'Owner', '--json'], env)) as { email: string; api_key: string };
  const [portA, portB] = [await freePort(), await freePort()];
  children.push(await serve(portA!, env), await serve(portB!, env));
  const call = caller(realm.email, realm.api_key);
  assert.equal((await call(portA!, 'PATCH', '/realm', { inline_url_embed_preview: true })).result, 'success');

  const reg = await call(portB!, 'POST', '/register', { event_types: ['update_message'], apply_markdown: true });
  const poll = call(portB!, 'GET', '/events', { queue_id: reg.queue_id, last_event_id: -1 });
  const url = `${site.url}/page`;
  const sent = await call(portA!, 'POST', '/messages', { type: 'stream', to: 'general', topic: 'two', content: url });
  const got = await poll;
  assert.deepEqual(
    got.events.map((e: any) => [e.type, e.message_id, e.rendering_only, e.user_id]),
    [['update_message', sent.id, true, null]],
  );
  const src = /url\(&quot;(\/external_content\/[0-9a-f]+\/[0-9a-f]+)&quot;\)/.exec(got.events[0].rendered_content as string)?.[1];
  assert.ok(src, got.events[0].rendered_content);
  const image = await fetch(`http://127.0.0.1:${portB}${src}`);
  assert.equal(image.status, 200);
  assert.deepEqual(Buffer.from(await image.arrayBuffer()), PNG);
});
