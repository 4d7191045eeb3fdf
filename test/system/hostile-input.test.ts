// Hostile requests found answering 500, hanging, or in fastify's own error shape: each is now a
// 4xx in the API's {result, msg, code} shape (the fuzz test walks every route with such input).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startServer, type TestServer } from '../helpers/server.ts';
import { rawRequest, type RawResponse } from '../helpers/fuzz.ts';

const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);

function apiError(res: RawResponse, status: number, msg?: string): void {
  assert.equal(res.status, status, res.text.slice(0, 300));
  const body = JSON.parse(res.text) as Record<string, unknown>;
  assert.equal(body.result, 'error');
  assert.equal(typeof body.code, 'string');
  if (msg !== undefined) assert.equal(body.msg, msg);
}

function send(s: TestServer, method: string, url: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<RawResponse> {
  const auth = 'Basic ' + Buffer.from(`${s.owner.email}:${s.owner.apiKey}`).toString('base64');
  return rawRequest(s.baseUrl, method, url, { authorization: auth, ...headers }, body);
}

test('JSON nested 100,000 deep, in a JSON body or a parameter, is a 400 naming the parameter', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const json = { 'content-type': 'application/json' };
  apiError(await send(s, 'POST', '/api/v1/messages', json, `{"type":"stream","to":${deep(100_000)}}`), 400, 'to is nested too deeply (limit: 100 levels)');
  apiError(await send(s, 'PATCH', '/api/v1/settings', json, `{"zz":${deep(100_000)}}`), 400, 'zz is nested too deeply (limit: 100 levels)');
  const form = `anchor=newest&num_before=1&num_after=0&op=add&flag=read&narrow=${encodeURIComponent(deep(100_000))}`;
  apiError(await send(s, 'POST', '/api/v1/messages/flags/narrow', {}, form), 400, 'narrow is nested too deeply (limit: 100 levels)');
  // 100 levels still decode: the check is on depth, not on the value.
  apiError(await send(s, 'POST', '/api/v1/messages/flags/narrow', {}, form.replace(/narrow=.*/, `narrow=${encodeURIComponent(deep(100))}`)), 400);
});

test('a malformed multipart body is a 400, also on the upload routes, and a body cut short does not hang', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const cutShort = '--x\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nvvvv';
  for (const url of ['/api/v1/messages', '/api/v1/user_uploads', '/api/v1/realm/emoji/smile']) {
    apiError(await send(s, 'POST', url, { 'content-type': 'multipart/form-data' }, 'abc'), 400, 'Malformed multipart body');
    if (url !== '/api/v1/messages') apiError(await send(s, 'POST', url, { 'content-type': 'multipart/form-data; boundary=x' }, cutShort), 400, 'Malformed multipart body');
  }
  // A complete body still uploads.
  const whole = await send(s, 'POST', '/api/v1/user_uploads', { 'content-type': 'multipart/form-data; boundary=x' }, `${cutShort}\r\n--x--\r\n`);
  assert.equal(whole.status, 200, whole.text);
});

test('lists of 70,000 IDs (past both databases\' bound-variable limits) are answered without a database error on flags, typing and group members', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  const ids = JSON.stringify(Array.from({ length: 70_000 }, (_, i) => i + 1));
  const group = await s.ok('POST', '/api/v1/user_groups/create', { name: 'g', description: 'd', members: [s.owner.id] });
  apiError(await send(s, 'POST', '/api/v1/messages/flags', {}, `op=add&flag=read&messages=${ids}`), 400, 'Invalid message(s)');
  apiError(await send(s, 'POST', '/api/v1/messages/flags', {}, `op=add&flag=starred&messages=${ids}`), 400);
  apiError(await send(s, 'POST', '/api/v1/typing', {}, `op=start&to=${ids}`), 400);
  apiError(await send(s, 'POST', `/api/v1/user_groups/${group.group_id}/members`, {}, `add=${ids}`), 400);
  // A long list naming users who exist (here one, repeated) is answered as a short one.
  const valid = JSON.stringify(Array.from({ length: 70_000 }, () => s.owner.id));
  assert.equal((await send(s, 'POST', '/api/v1/typing', {}, `op=start&to=${valid}`)).status, 200);
});

test('bad percent-encoding, over-long path parameters and malformed HTTP are answered in the API shape', async (t) => {
  const s = await startServer();
  t.after(() => s.close());
  apiError(await send(s, 'PATCH', '/api/v1/users/%zz'), 400, 'The URL is not validly encoded');
  apiError(await send(s, 'PATCH', `/api/v1/users/${'1'.repeat(2000)}`), 400, 'A path parameter is too long');
  // A GET may fall to the web app's route of last resort, which answers the API's 404 under /api/.
  for (const url of ['/api/v1/users/%zz', `/api/v1/users/${'1'.repeat(2000)}`]) {
    const res = await send(s, 'GET', url);
    apiError(res, res.status === 404 ? 404 : 400);
  }
  apiError(await send(s, 'GET', `/api/v1/users?x=${'a'.repeat(100_000)}`), 431, 'Request headers too large');
  // An email past fastify's default of 100 characters is a path parameter like any other.
  apiError(await send(s, 'GET', `/api/v1/users/${'a'.repeat(150)}@example.com/presence`), 400, 'No such user');
  const raw = await new Promise<string>((resolve, reject) => {
    const sock = net.connect(Number(new URL(s.baseUrl).port), '127.0.0.1', () => sock.write('GET /api/v1/users HTTP/1.1\r\nbad header line\r\n\r\n'));
    let out = '';
    sock.on('data', (d: Buffer) => (out += d.toString()));
    sock.on('close', () => resolve(out));
    sock.on('error', reject);
  });
  assert.match(raw, /^HTTP\/1\.1 400 /);
  assert.deepEqual(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)), { result: 'error', msg: 'Malformed HTTP request', code: 'BAD_REQUEST' });
});
