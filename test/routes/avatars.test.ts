import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { startServer, type Account, type TestServer } from '../helpers/server.ts';
import { checkResponse } from '../helpers/openapi.ts';
import { kinds, verifyAction } from '../helpers/verify.ts';

/** A 300x120 JPEG: wider than tall, so the stored squares show that it was cropped. */
const JPEG = await sharp({ create: { width: 300, height: 120, channels: 3, background: { r: 200, g: 40, b: 90 } } }).jpeg().toBuffer();
const PNG = await sharp({ create: { width: 64, height: 64, channels: 4, background: { r: 10, g: 120, b: 200, alpha: 1 } } }).png().toBuffer();

async function post(s: TestServer, apiPath: string, data: Buffer | null, as: Account = s.owner, name = 'me.jpg') {
  const form = new FormData();
  if (data) form.append('file', new Blob([new Uint8Array(data)]), name);
  else form.append('note', 'no file');
  const res = await fetch(`${s.baseUrl}/api/v1${apiPath}`, {
    method: 'POST',
    headers: { authorization: 'Basic ' + Buffer.from(`${as.email}:${as.apiKey}`).toString('base64') },
    body: form,
  });
  const body = (await res.json()) as Record<string, any>;
  if (res.status === 200) assert.deepEqual(checkResponse('POST', `/api/v1${apiPath}`, body), []);
  return { status: res.status, body };
}

/** Fetches an avatar URL from this server (the URL's origin is the realm's, not the test's). */
async function image(s: TestServer, url: string) {
  const u = new URL(url);
  const res = await fetch(s.baseUrl + u.pathname + u.search);
  const data = Buffer.from(await res.arrayBuffer());
  return { res, data };
}

async function userRow(s: TestServer, id: number) {
  return s.server.app.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

test('an uploaded avatar is stored as 100px and 500px squares, served with caching, and announced', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const bob = await s.createUser('Bob');
  s.published.length = 0;
  const res = await post(s, '/users/me/avatar', JPEG, alice);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const row = await userRow(s, alice.id);
  assert.equal(row.avatar_source, 'U');
  assert.equal(row.avatar_version, 2);
  assert.match(res.body.avatar_url, new RegExp(`/user_avatars/\\d+/${alice.id}\\.png\\?version=2$`));

  const small = await image(s, res.body.avatar_url);
  assert.equal(small.res.status, 200);
  assert.equal(small.res.headers.get('content-type'), 'image/png');
  assert.match(small.res.headers.get('cache-control')!, /max-age=31536000/);
  assert.deepEqual(await sharp(small.data).metadata().then((m) => [m.format, m.width, m.height]), ['png', 100, 100]);

  const events = s.published.filter((p) => p.event.type === 'realm_user');
  assert.equal(events.length, 1);
  const { person } = events[0]!.event;
  assert.deepEqual(events[0]!.userIds.sort(), [s.owner.id, alice.id, bob.id].sort());
  assert.deepEqual(Object.keys(person).sort(), ['avatar_source', 'avatar_url', 'avatar_url_medium', 'avatar_version', 'user_id']);
  assert.equal(person.avatar_source, 'U');
  assert.equal(person.avatar_url, res.body.avatar_url);
  const medium = await image(s, person.avatar_url_medium);
  assert.equal(medium.res.status, 200);
  assert.deepEqual(await sharp(medium.data).metadata().then((m) => [m.width, m.height]), [500, 500]);

  // An outdated version is served (the image may have changed since) but not cached for long.
  const old = await image(s, res.body.avatar_url.replace('version=2', 'version=1'));
  assert.equal(old.res.status, 200);
  assert.equal(old.res.headers.get('cache-control'), 'no-cache');

  // Everyone sees it in user objects, messages and the uploader's own register fields.
  const me = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['realm_user'] }, alice);
  assert.equal(me.avatar_source, 'U');
  assert.equal(me.avatar_url, res.body.avatar_url);
  assert.equal(me.avatar_url_medium, person.avatar_url_medium);
  const seen = await s.ok('GET', `/api/v1/users/${alice.id}`, {}, bob);
  assert.equal(seen.user.avatar_url, res.body.avatar_url);
  assert.equal(seen.user.avatar_version, 2);
  const { id } = await s.ok('POST', '/api/v1/messages', { type: 'stream', to: 'general', topic: 't', content: 'hi' }, alice);
  const { messages } = await s.ok('GET', '/api/v1/messages', { anchor: id, num_before: 0, num_after: 0 }, bob);
  assert.equal(messages[0].avatar_url, res.body.avatar_url);
  // Someone who never uploaded one has none here.
  assert.equal((await image(s, res.body.avatar_url.replace(`/${alice.id}.png`, `/${bob.id}.png`))).res.status, 404);
});

test('removing an avatar goes back to the external service, removes the files and announces it', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const up = await post(s, '/users/me/avatar', PNG);
  assert.equal(up.status, 200);
  const dir = path.join(s.config.uploadsDir, 'avatars');
  assert.equal(fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.png')).length, 2);
  s.published.length = 0;
  const res = await s.ok('DELETE', '/api/v1/users/me/avatar');
  assert.match(res.avatar_url, /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=3$/);
  assert.equal((await userRow(s, s.owner.id)).avatar_source, 'G');
  assert.deepEqual(s.published.map((p) => [p.event.type, p.event.person.avatar_source, p.event.person.avatar_version]), [['realm_user', 'G', 3]]);
  assert.equal((await image(s, up.body.avatar_url)).res.status, 404);
  assert.equal(fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.png')).length, 0);
});

test('avatar uploads refuse non-images, undecodable and oversized files and missing files, changing nothing', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  s.published.length = 0;
  const broken = Buffer.concat([PNG.subarray(0, 40), Buffer.alloc(200, 7)]);
  // Small on the wire, 49 million pixels once decoded: refused before decoding.
  const bomb = await sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#fff' } }).png({ compressionLevel: 9 }).toBuffer();
  assert.ok(bomb.length < 5 * 1024 * 1024);
  const cases: [Buffer | null, RegExp][] = [
    [Buffer.from('hello, not an image'), /Invalid image format/],
    [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), /Invalid image format/],
    [broken, /Could not decode image/],
    [bomb, /Image is too large: at most 40 million pixels, this one has 7000x7000/],
    [null, /exactly one avatar/],
    [Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), /larger than the allowed limit of 5 MiB/],
  ];
  for (const [data, msg] of cases) {
    const res = await post(s, '/users/me/avatar', data);
    assert.equal(res.status, 400, String(msg));
    assert.equal(res.body.result, 'error');
    assert.match(res.body.msg, msg);
  }
  const row = await userRow(s, s.owner.id);
  assert.deepEqual([row.avatar_source, row.avatar_version], ['G', 1]);
  assert.deepEqual(s.published, []);
  assert.equal(fs.existsSync(path.join(s.config.uploadsDir, 'avatars')), false);
});

test('avatar_changes_disabled stops members but not administrators', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  await s.ok('PATCH', '/api/v1/realm', { avatar_changes_disabled: true });
  const refused = await post(s, '/users/me/avatar', PNG, alice);
  assert.equal(refused.status, 400);
  assert.match(refused.body.msg, /Avatar changes are disabled/);
  assert.equal((await s.api('DELETE', '/api/v1/users/me/avatar', {}, { as: alice })).status, 400);
  assert.equal((await post(s, '/users/me/avatar', PNG)).status, 200);
});

test('avatar events bring a client to the state of a fresh register, with and without client_external_avatar', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const bob = await s.createUser('Bob');
  for (const external of [false, true]) {
    const register = { client_external_avatar: external };
    const up = await verifyAction(s, bob, () => post(s, '/users/me/avatar', JPEG), { register });
    assert.deepEqual(kinds(up), ['realm_user:update']);
    const down = await verifyAction(s, bob, () => s.ok('DELETE', '/api/v1/users/me/avatar'), { register });
    assert.deepEqual(kinds(down), ['realm_user:update']);
    // The uploader's own register fields follow too.
    await verifyAction(s, bob, () => post(s, '/users/me/avatar', PNG, bob), { register });
    await verifyAction(s, bob, () => s.ok('DELETE', '/api/v1/users/me/avatar', {}, bob), { register });
  }
});

test('the organization icon: administrators upload and remove it; register, events and server settings follow', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const before = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['realm'] }, alice);
  assert.equal(before.realm_icon_source, 'G');

  const refused = await post(s, '/realm/icon', PNG, alice);
  assert.equal(refused.status, 400);
  assert.match(refused.body.msg, /administrator/i);
  assert.equal((await s.api('DELETE', '/api/v1/realm/icon', {}, { as: alice })).status, 400);
  assert.equal((await post(s, '/realm/icon', Buffer.from('GIF89a but not really'))).status, 400);

  s.published.length = 0;
  const events = await verifyAction(s, alice, async () => {
    const res = await post(s, '/realm/icon', JPEG);
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });
  assert.deepEqual(kinds(events), ['realm:update_dict']);
  const { data } = events[0] as unknown as { data: { icon_url: string; icon_source: string } };
  assert.equal(events[0]!.property, 'icon');
  assert.equal(data.icon_source, 'U');
  assert.match(data.icon_url, /\/user_avatars\/\d+\/realm\/icon\.png\?version=2$/);
  assert.deepEqual(s.published[0]!.userIds.sort(), [s.owner.id, alice.id].sort());
  const icon = await image(s, data.icon_url);
  assert.equal(icon.res.status, 200);
  assert.match(icon.res.headers.get('cache-control')!, /immutable/);
  assert.deepEqual(await sharp(icon.data).metadata().then((m) => [m.width, m.height]), [100, 100]);

  const after = await s.ok('POST', '/api/v1/register', { fetch_event_types: ['realm'] }, alice);
  assert.deepEqual([after.realm_icon_url, after.realm_icon_source], [data.icon_url, 'U']);
  const server = await s.ok('GET', '/api/v1/server_settings');
  assert.equal(server.realm_icon, data.icon_url);

  const removed = await verifyAction(s, alice, () => s.ok('DELETE', '/api/v1/realm/icon'));
  assert.deepEqual((removed[0] as unknown as { data: unknown }).data, { icon_url: before.realm_icon_url, icon_source: 'G' });
  assert.equal((await image(s, data.icon_url)).res.status, 404);
});

async function patchBot(s: TestServer, botId: number, fields: Record<string, string>, data: Buffer | null, as: Account) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (data) form.append('file', new Blob([new Uint8Array(data)]), 'bot.png');
  const res = await fetch(`${s.baseUrl}/api/v1/bots/${botId}`, {
    method: 'PATCH',
    headers: { authorization: 'Basic ' + Buffer.from(`${as.email}:${as.apiKey}`).toString('base64') },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

test("a bot's avatar is set by its owner or an administrator through PATCH /bots with a file", async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const alice = await s.createUser('Alice');
  const carol = await s.createUser('Carol');
  const bot = await s.ok('POST', '/api/v1/bots', { full_name: 'Helper', short_name: 'helper' }, alice);

  const refused = await patchBot(s, bot.user_id, {}, PNG, carol);
  assert.equal(refused.status, 400);
  assert.match(refused.body.msg, /Insufficient permission/);
  const notImage = await patchBot(s, bot.user_id, { full_name: 'Renamed' }, Buffer.from('nope'), alice);
  assert.equal(notImage.status, 400);
  assert.equal((await userRow(s, bot.user_id)).full_name, 'Helper', 'a refused file changes nothing else');

  const events = await verifyAction(s, alice, async () => {
    const res = await patchBot(s, bot.user_id, { full_name: 'Helper Bot' }, JPEG, s.owner);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.full_name, 'Helper Bot');
    assert.match(res.body.avatar_url, new RegExp(`/${bot.user_id}\\.png\\?version=2$`));
  });
  assert.deepEqual(kinds(events), ['realm_user:update', 'realm_bot:update', 'realm_user:update', 'realm_bot:update']);
  const { bots } = await s.ok('GET', '/api/v1/bots', {}, alice);
  assert.match(bots[0].avatar_url, /\/user_avatars\/.*\?version=2$/);
  assert.equal((await image(s, bots[0].avatar_url)).res.status, 200);
});

test('a wide image is cropped to its centre, and EXIF orientation is applied first', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  // Red, green and blue thirds of 300x100: the centred square is the green third.
  const third = (r: number, g: number, b: number) => sharp({ create: { width: 100, height: 100, channels: 3, background: { r, g, b } } }).png().toBuffer();
  const [red, green, blue] = await Promise.all([third(255, 0, 0), third(0, 255, 0), third(0, 0, 255)]);
  const stripes = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#000' } })
    .composite([{ input: red, left: 0, top: 0 }, { input: green, left: 100, top: 0 }, { input: blue, left: 200, top: 0 }])
    .png()
    .toBuffer();
  const pixels = async (url: string) => {
    const { data } = await image(s, url);
    const raw = await sharp(data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...raw.data.subarray((y * raw.info.width + x) * 3, (y * raw.info.width + x) * 3 + 3)];
    return [at(5, 50), at(50, 50), at(94, 50)];
  };
  const res = await post(s, '/users/me/avatar', stripes, s.owner, 'stripes.png');
  assert.equal(res.status, 200);
  for (const px of await pixels(res.body.avatar_url)) assert.deepEqual(px, [0, 255, 0]);
  // Red left half, green right half, stored on its side with EXIF orientation 6 ("rotate 90°
  // clockwise to show"): it comes out upright, red on the left, not red at the bottom.
  const halves = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#000' } })
    .composite([{ input: await sharp(red).resize(100, 200).toBuffer(), left: 0, top: 0 }, { input: await sharp(green).resize(100, 200).toBuffer(), left: 100, top: 0 }])
    .png()
    .toBuffer();
  const sideways = await sharp(halves).rotate(-90).withMetadata({ orientation: 6 }).jpeg({ quality: 100 }).toBuffer();
  assert.equal((await sharp(sideways).metadata()).orientation, 6);
  const turned = await post(s, '/users/me/avatar', sideways, s.owner, 'sideways.jpg');
  assert.equal(turned.status, 200);
  const [left, , right] = await pixels(turned.body.avatar_url);
  assert.ok(left![0]! > 200 && left![1]! < 60, `red on the left, not ${left!.join(',')}`);
  assert.ok(right![1]! > 200 && right![0]! < 60, `green on the right, not ${right!.join(',')}`);
});
