import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startServer, type Account, type TestServer } from '../helpers/server.ts';
import { checkResponse } from '../helpers/openapi.ts';
import { realmEmojiGroup } from '../../src/events/event-types/realm_emoji.ts';
import { loadRealmMarkdownData } from '../../src/lib/realm-markdown.ts';
import { plainContext, renderMarkdown } from '../../src/lib/markdown/index.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

async function upload(s: TestServer, name: string, data: Buffer | null, as: Account = s.owner) {
  const form = new FormData();
  if (data) form.append('filename', new Blob([new Uint8Array(data)]), 'emoji.png');
  else form.append('note', 'no file');
  const res = await fetch(`${s.baseUrl}/api/v1/realm/emoji/${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { authorization: 'Basic ' + Buffer.from(`${as.email}:${as.apiKey}`).toString('base64') },
    body: form,
  });
  const body = (await res.json()) as Record<string, any>;
  if (res.status === 200) assert.deepEqual(checkResponse('POST', `/api/v1/realm/emoji/${name}`, body), []);
  return { status: res.status, body };
}

test('uploading a custom emoji stores the image, lists it, serves it and announces it', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  s.published.length = 0;
  const res = await upload(s, 'party_parrot', PNG, alice);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const { emoji } = await s.ok('GET', '/api/v1/realm/emoji');
  const entries = Object.values(emoji) as any[];
  assert.equal(entries.length, 1);
  const e = entries[0];
  assert.equal(e.name, 'party_parrot');
  assert.equal(e.author_id, alice.id);
  assert.equal(e.deactivated, false);
  assert.match(e.source_url, /^\/user_avatars\/\d+\/emoji\/images\/[0-9a-f]+\.png$/);
  assert.deepEqual(Object.keys(emoji), [e.id]);
  assert.deepEqual(s.published.map((p) => p.event), [{ type: 'realm_emoji', op: 'update', realm_emoji: emoji }]);
  assert.deepEqual(s.published[0]!.userIds.sort(), [s.owner.id, alice.id].sort());
  const served = await fetch(s.baseUrl + e.source_url);
  assert.equal(served.status, 200);
  assert.equal(served.headers.get('content-type'), 'image/png');
  assert.deepEqual(Buffer.from(await served.arrayBuffer()), PNG);
  const file = path.join(s.config.uploadsDir, 'emoji', e.source_url.split('/')[2], path.basename(e.source_url));
  assert.ok(fs.existsSync(file));
  const missing = await fetch(`${s.baseUrl}/user_avatars/1/emoji/images/0000.png`);
  assert.equal(missing.status, 404);
  const realm = await s.server.app.db.kysely.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
  const snap = await realmEmojiGroup({ app: s.server.app, realm, user: null, clientCapabilities: {}, applyMarkdown: true, clientExternalAvatar: true, includeSubscribers: false, slimPresence: false });
  assert.deepEqual(snap.realm_emoji, emoji);
});

test('emoji uploads refuse bad names, duplicates, non-images, missing and oversized files', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  assert.equal((await upload(s, 'ok_name', PNG)).status, 200);
  const cases: [string, Buffer | null, RegExp][] = [
    ['Bad Name!', PNG, /lowercase alphanumeric/],
    ['trailing_', PNG, /lowercase alphanumeric/],
    ['ok_name', PNG, /already exists/],
    ['text', Buffer.from('hello, not an image'), /Invalid image format/],
    ['nofile', null, /exactly one file/],
    ['huge', Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), /larger than the allowed limit of 5 MiB/],
  ];
  for (const [name, data, msg] of cases) {
    const res = await upload(s, name, data);
    assert.equal(res.status, 400, name);
    assert.match(res.body.msg, msg, name);
  }
  const { emoji } = await s.ok('GET', '/api/v1/realm/emoji');
  assert.equal(Object.keys(emoji).length, 1);
  // A refused upload leaves no file behind.
  const dir = path.join(s.config.uploadsDir, 'emoji');
  const files = fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).includes('.'));
  assert.equal(files.length, 1);
});

test('the add_custom_emoji_policy decides who may add; members may not override Unicode emoji', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const member = await s.createUser('Member');
  const override = await upload(s, 'smile', PNG, member);
  assert.equal(override.status, 400);
  assert.equal(override.body.msg, 'Only administrators can override default emoji.');
  await s.ok('PATCH', '/api/v1/realm', { add_custom_emoji_policy: 2 });
  const refused = await upload(s, 'mine', PNG, member);
  assert.equal(refused.status, 400);
  assert.equal(refused.body.msg, 'Insufficient permission');
  assert.equal((await upload(s, 'smile', PNG)).status, 200);
});

test('deleting deactivates: the author or an administrator may; others are refused', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  await upload(s, 'alices', PNG, alice);
  await upload(s, 'owners', PNG);
  const refused = await s.api('DELETE', '/api/v1/realm/emoji/owners', {}, { as: bob });
  assert.equal(refused.status, 400);
  assert.equal(refused.body.msg, 'Must be an organization administrator or emoji author');
  s.published.length = 0;
  await s.ok('DELETE', '/api/v1/realm/emoji/alices', {}, alice);
  await s.ok('DELETE', '/api/v1/realm/emoji/owners');
  const { emoji } = await s.ok('GET', '/api/v1/realm/emoji');
  assert.deepEqual(Object.values(emoji).map((e: any) => [e.name, e.deactivated]), [['alices', true], ['owners', true]]);
  assert.deepEqual(s.published.map((p) => p.event.type), ['realm_emoji', 'realm_emoji']);
  assert.deepEqual(s.published[1]!.event.realm_emoji, emoji);
  const gone = await s.api('DELETE', '/api/v1/realm/emoji/alices');
  assert.equal(gone.status, 404);
  assert.equal(gone.body.msg, "Emoji 'alices' does not exist");
  // The name is free again once deactivated.
  assert.equal((await upload(s, 'alices', PNG, bob)).status, 200);
});

test('message rendering finds active custom emoji and linkifiers through loadRealmMarkdownData', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  await upload(s, 'parley', PNG);
  await upload(s, 'retired', PNG);
  await s.ok('DELETE', '/api/v1/realm/emoji/retired');
  await s.ok('POST', '/api/v1/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/issues/{id}' });
  const realm = await s.server.app.db.kysely.selectFrom('realms').selectAll().executeTakeFirstOrThrow();
  const data = await loadRealmMarkdownData(s.server.app.db.kysely, realm.id, 'http://localhost');
  assert.equal(data.realmEmoji('retired'), undefined);
  const html = renderMarkdown('see #12 :parley:', { ...plainContext('http://localhost'), ...data }).html;
  assert.match(html, /<a href="https:\/\/example\.com\/issues\/12"[^>]*>#12<\/a>/);
  assert.match(html, /<img alt=":parley:" class="emoji" src="http:\/\/localhost\/user_avatars\/\d+\/emoji\/images\/[0-9a-f]+\.png" title="parley">/);
});
