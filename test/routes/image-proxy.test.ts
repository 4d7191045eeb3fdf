// The image proxy: rendered messages point external images at it, it fetches only what the
// server signed, passes raster images only, with the safe headers, and refuses local addresses
// unless PREVIEW_ALLOW_PRIVATE is set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/server.ts';
import { send } from '../helpers/factories.ts';
import { PNG, startSite, type Site } from '../helpers/site.ts';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

async function setup(t: { after(fn: () => Promise<void>): void }, env: Record<string, string>): Promise<{ s: TestServer; site: Site }> {
  const site = await startSite({
    '/a.png': { headers: { 'content-type': 'image/png' }, body: PNG },
    '/b.svg': { headers: { 'content-type': 'image/svg+xml' }, body: SVG },
    '/c.png': { headers: { 'content-type': 'text/html' }, body: '<p>not an image</p>' },
  });
  const s = await startServer({ env });
  t.after(async () => {
    await s.close();
    await site.close();
  });
  return { s, site };
}

async function stored(s: TestServer, id: number): Promise<string> {
  return (await s.ok('GET', `/api/v1/messages/${id}`)).message.content as string;
}

const proxyPath = (html: string): string => {
  const m = /<img src="(\/external_content\/[0-9a-f]{40}\/[0-9a-f]+)">/.exec(html);
  assert.ok(m, html);
  return m[1]!;
};

test('a linked external image is previewed through the proxy, which serves it with safe headers', async (t) => {
  const { s, site } = await setup(t, { PREVIEW_ALLOW_PRIVATE: 'true' });
  const url = `${site.url}/a.png`;
  const html = await stored(s, await send(s, 'general', 't', url));
  const path = proxyPath(html);
  assert.equal(html, `<div class="message_inline_image"><a href="${url}"><img src="${path}"></a></div>`);
  assert.equal(Buffer.from(path.split('/')[3]!, 'hex').toString(), url);
  // The image loads without credentials (an <img> of any client), from the server itself.
  const res = await fetch(s.baseUrl + path);
  assert.equal(res.status, 200);
  assert.deepEqual(Buffer.from(await res.arrayBuffer()), PNG);
  assert.equal(res.headers.get('content-type'), 'image/png');
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.match(res.headers.get('content-security-policy') ?? '', /sandbox/);
  const msg = await s.ok('GET', '/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'has', operand: 'image' }] });
  assert.equal(msg.messages.length, 1);
});

test('the proxy fetches only URLs the server signed: not an open proxy', async (t) => {
  const { s, site } = await setup(t, { PREVIEW_ALLOW_PRIVATE: 'true' });
  const path = proxyPath(await stored(s, await send(s, 'general', 't', `${site.url}/a.png`)));
  const [, , digest, hex] = path.split('/');
  const other = Buffer.from(`${site.url}/b.svg`).toString('hex');
  const hits = site.hits.length;
  for (const bad of [`/external_content/${digest}/${other}`, `/external_content/${'0'.repeat(40)}/${hex}`, `/external_content/${digest}/zz`, `/external_content/short/${hex}`]) {
    const res = await fetch(s.baseUrl + bad);
    assert.equal(res.status, 404, bad);
    assert.equal(((await res.json()) as { code: string }).code, 'NOT_FOUND');
  }
  assert.equal(site.hits.length, hits);
});

test('SVG and non-image answers are not passed on', async (t) => {
  const { s, site } = await setup(t, { PREVIEW_ALLOW_PRIVATE: 'true' });
  const html = await stored(s, await send(s, 'general', 't', `${site.url}/b.svg and ${site.url}/c.png`));
  // .svg is no image extension of the reference: no preview at all.
  assert.ok(!html.includes(`href="${site.url}/b.svg"><img`));
  const res = await fetch(s.baseUrl + proxyPath(html));
  assert.equal(res.status, 404);
  // Even a signed SVG URL is refused by content type.
  const { imageProxyUrl } = await import('../../src/lib/image-proxy.ts');
  const svg = await fetch(s.baseUrl + imageProxyUrl(s.server.app.imageProxyKey, `${site.url}/b.svg`));
  assert.equal(svg.status, 404);
  assert.ok(site.hits.includes('/b.svg'));
});

test('by default the proxy refuses loopback targets and never contacts them', async (t) => {
  const { s, site } = await setup(t, {});
  const html = await stored(s, await send(s, 'general', 't', `${site.url}/a.png`));
  const res = await fetch(s.baseUrl + proxyPath(html));
  assert.equal(res.status, 404);
  assert.deepEqual(site.hits, []);
});

test('the realm setting inline_image_preview turns image previews off', async (t) => {
  const { s, site } = await setup(t, { PREVIEW_ALLOW_PRIVATE: 'true' });
  await s.ok('PATCH', '/api/v1/realm', { inline_image_preview: false });
  const url = `${site.url}/a.png`;
  assert.equal(await stored(s, await send(s, 'general', 't', url)), `<p><a href="${url}">${url}</a></p>`);
});

test('the server emoji :parley: renders as an image served by the server', async (t) => {
  const { s } = await setup(t, {});
  const html = await stored(s, await send(s, 'general', 't', 'hi :parley:'));
  const src = '/static/generated/emoji/images/emoji/unicode/parley.svg';
  assert.equal(html, `<p>hi <img alt=":parley:" class="emoji" src="${src}" title="parley"></p>`);
  const res = await fetch(s.baseUrl + src);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/svg+xml');
  assert.match(await res.text(), /^<svg /);
});

test('the server renders the reference fixtures of inline images byte for byte (key "dummy", proxy on its own host)', async (t) => {
  const { referenceFixtures } = await import('../helpers/markdown-reference.ts');
  const fixtures = referenceFixtures();
  if (!fixtures) return t.skip('reference fixtures not found');
  const s = await startServer({ env: { IMAGE_PROXY_SECRET: 'dummy' } });
  t.after(() => s.close());
  const cases = fixtures.regular.filter((c) => c.expected_output.includes('/external_content/'));
  assert.ok(cases.length >= 8, `${cases.length} cases`);
  for (const c of cases) {
    const { rendered } = await s.ok('POST', '/api/v1/messages/render', { content: c.input });
    // The reference's test server puts its proxy on a CDN host; Parley's is on its own host.
    assert.equal(rendered, c.expected_output.replaceAll('https://external-content.zulipcdn.net/external_content/', '/external_content/'), c.name);
  }
});
