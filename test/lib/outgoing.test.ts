// Requests to user-given URLs: refused addresses (checked after DNS resolution), redirects, time
// and size limits, and the page parser of website previews, against a real local HTTP server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPrivateAddress, outgoingGet, OutgoingError } from '../../src/lib/outgoing.ts';
import { fetchEmbedData, parsePage } from '../../src/lib/url-preview.ts';
import { startSite } from '../helpers/site.ts';

const open = { timeoutMs: 2000, maxBytes: 10_000, allowPrivate: true };
const closed = { ...open, allowPrivate: false };

test('private, loopback, link-local and mapped addresses are refused; public ones are not', () => {
  for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a9fe:a9fe', 'not-an-ip']) {
    assert.equal(isPrivateAddress(a), true, a);
  }
  for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) assert.equal(isPrivateAddress(a), false, a);
});

test('by default loopback is refused, by IP and by a name that resolves to it, and the site is never contacted', async (t) => {
  const site = await startSite({ '/': { body: 'hi' } });
  t.after(() => site.close());
  const port = new URL(site.url).port;
  for (const url of [`${site.url}/`, `http://localhost:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, `http://[::1]:${port}/`]) {
    await assert.rejects(outgoingGet(url, closed), OutgoingError, url);
  }
  assert.deepEqual(site.hits, []);
  // With the option on (tests, private deployments) the same page is fetched.
  const got = await outgoingGet(`${site.url}/`, open);
  assert.equal(got.body.toString(), 'hi');
});

test('only http and https; no credentials in the URL', async () => {
  for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'gopher://x', 'http://user:pw@example.com/', 'nonsense']) {
    await assert.rejects(outgoingGet(url, open), OutgoingError, url);
  }
});

test('redirects are followed and checked again; too many are refused', async (t) => {
  const site = await startSite({
    '/a': { status: 302, headers: { location: '/b' } },
    '/b': { body: 'end' },
    '/loop': { status: 301, headers: { location: '/loop' } },
    '/to-file': { status: 302, headers: { location: 'file:///etc/passwd' } },
  });
  t.after(() => site.close());
  const got = await outgoingGet(`${site.url}/a`, open);
  assert.equal(got.body.toString(), 'end');
  assert.equal(got.url, `${site.url}/b`);
  await assert.rejects(outgoingGet(`${site.url}/loop`, open), /too many redirects/);
  await assert.rejects(outgoingGet(`${site.url}/to-file`, open), /only http and https/);
});

test('bodies over the size limit and answers slower than the timeout are refused', async (t) => {
  const site = await startSite({ '/big': { body: 'x'.repeat(20_000) }, '/slow': { body: 'late', delayMs: 1500 } });
  t.after(() => site.close());
  await assert.rejects(outgoingGet(`${site.url}/big`, open), /too large/);
  const started = Date.now();
  await assert.rejects(outgoingGet(`${site.url}/slow`, { ...open, timeoutMs: 200 }), OutgoingError);
  assert.ok(Date.now() - started < 1000);
});

const ROCK_PAGE = `<html><head><title>Test title</title>
  <meta property="og:title" content="The Rock" />
  <meta property="og:image" content="/images/rock.jpg" />
  <meta http-equiv="refresh" content="30" />
</head><body><h1>Main header</h1><p>Description &amp; text</p></body></html>`;

test('a page: Open Graph first, then its title, description or first paragraph, image made absolute', () => {
  assert.deepEqual(parsePage(ROCK_PAGE, 'http://test.org/dir/page'), { title: 'The Rock', description: 'Description & text', image: 'http://test.org/images/rock.jpg' });
  assert.deepEqual(parsePage('<html><head><title>T &lt;1&gt;</title><meta name="description" content="D"></head><body><img src="i.png"></body></html>', 'http://a.org/'), {
    title: 'T <1>',
    description: 'D',
    image: 'http://a.org/i.png',
  });
  assert.equal(parsePage('<meta property="og:image" content="javascript:alert(1)">', 'http://a.org/').image, undefined);
});

test('fetchEmbedData: HTML pages only; errors and refused addresses give null', async (t) => {
  const site = await startSite({
    '/page': { body: ROCK_PAGE },
    '/file.mp3': { headers: { 'content-type': 'application/octet-stream' }, body: 'ID3' },
    '/gone': { status: 500, body: ROCK_PAGE },
  });
  t.after(() => site.close());
  assert.deepEqual(await fetchEmbedData(`${site.url}/page`, open), { title: 'The Rock', description: 'Description & text', image: `${site.url}/images/rock.jpg` });
  assert.equal(await fetchEmbedData(`${site.url}/file.mp3`, open), null);
  assert.equal(await fetchEmbedData(`${site.url}/gone`, open), null);
  assert.equal(await fetchEmbedData(`${site.url}/page`, closed), null);
});

test('fetchEmbedData: a known video host is asked through its oEmbed endpoint', async (t) => {
  const site = await startSite({ '/video/1': { body: '<html><head><title>Video page</title></head></html>' } });
  const player = '<iframe src="https://player.example/1"></iframe>';
  site.pages.set('/oembed', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'video', title: 'A video', thumbnail_url: 'https://cdn.example/1.jpg', html: `<![CDATA[${player}]]>` }),
  });
  t.after(() => site.close());
  const providers = [{ match: new RegExp(`^${site.url}/video/`), endpoint: `${site.url}/oembed` }];
  const data = await fetchEmbedData(`${site.url}/video/1`, { ...open, providers });
  assert.deepEqual(data, { oembed: 'video', title: 'A video', description: undefined, image: 'https://cdn.example/1.jpg', html: player });
  assert.ok(site.hits.some((h) => h.startsWith('/oembed?url=' + encodeURIComponent(`${site.url}/video/1`))));
  // A page of an unknown host gets no oEmbed call, only its own tags.
  site.pages.set('/other', { body: '<title>Other</title>' });
  assert.deepEqual(await fetchEmbedData(`${site.url}/other`, open), { title: 'Other', description: undefined, image: undefined });
});

test('the fetch limiter runs at most its limit at once, the rest in order, and passes failures on', async () => {
  const { Limiter } = await import('../../src/lib/limiter.ts');
  const limiter = new Limiter(2);
  let running = 0;
  let most = 0;
  const order: number[] = [];
  const task = (n: number) => async () => {
    running++;
    most = Math.max(most, running);
    await new Promise((r) => setTimeout(r, 20));
    running--;
    order.push(n);
    if (n === 3) throw new Error('three');
    return n;
  };
  const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => limiter.run(task(n))));
  assert.equal(most, 2);
  assert.deepEqual(order, [1, 2, 3, 4, 5]);
  assert.deepEqual(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)), [1, 2, 'three', 4, 5]);
});
