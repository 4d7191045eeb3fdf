// Website previews: the send is answered before the page is fetched, then the message is updated
// with the preview by a rendering-only update_message event; the realm setting, edits during the
// fetch, and the refusal of local addresses by default.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { imageProxyUrl } from '../../src/lib/image-proxy.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { verifyAction } from '../helpers/verify.ts';
import { send } from '../helpers/factories.ts';
import { startSite, type Site } from '../helpers/site.ts';

const PAGE = `<html><head><title>Test title</title>
<meta property="og:title" content="The Rock" />
<meta property="og:image" content="/images/rock.jpg" />
</head><body><h1>Main header</h1><p>Description text</p></body></html>`;

async function setup(t: { after(fn: () => Promise<void>): void }, env: Record<string, string>, embeds = true): Promise<{ s: TestServer; site: Site }> {
  const site = await startSite({ '/page': { body: PAGE, delayMs: 300 }, '/other': { body: PAGE } });
  const s = await startServer({ env });
  t.after(async () => {
    await s.close();
    await site.close();
  });
  if (embeds) await s.ok('PATCH', '/api/v1/realm', { inline_url_embed_preview: true });
  return { s, site };
}

/** Waits for the previews this server process is fetching. */
const previewsDone = (s: TestServer): Promise<unknown> => Promise.allSettled([...s.server.app.previews]);

const stored = async (s: TestServer, id: number): Promise<string> => (await s.ok('GET', `/api/v1/messages/${id}`)).message.content as string;

function expected(s: TestServer, url: string, image: string): string {
  const src = imageProxyUrl(s.server.app.imageProxyKey, image);
  return (
    `<p><a href="${url}">${url}</a></p>\n<div class="message_embed"><a class="message_embed_image" href="${url}" style="background-image: url(&quot;${src}&quot;)"></a>` +
    `<div class="data-container"><div class="message_embed_title"><a href="${url}" title="The Rock">The Rock</a></div><div class="message_embed_description">Description text</div></div></div>`
  );
}

test('the send is answered at once; the preview arrives later by a rendering-only update_message event', async (t) => {
  const { s, site } = await setup(t, { PREVIEW_ALLOW_PRIVATE: 'true' });
  const url = `${site.url}/page`;
  let id = 0;
  const events = await verifyAction(s, s.owner, async () => {
    id = await send(s, 'general', 't', url);
    // Answered while the page (300 ms slow) was still being fetched.
    assert.equal(await stored(s, id), `<p><a href="${url}">${url}</a></p>`);
    await previewsDone(s);
  });
  const update = events.find((e) => e.type === 'update_message');
  assert.ok(update, JSON.stringify(events));
  const { id: _queueEventId, edit_timestamp: ts, ...rest } = update;
  assert.equal(typeof ts, 'number');
  assert.deepEqual(rest, {
    type: 'update_message',
    user_id: null,
    message_id: id,
    message_ids: [id],
    content: url,
    rendered_content: expected(s, url, `${site.url}/images/rock.jpg`),
    rendering_only: true,
    flags: ['read'],
  });
  assert.equal(await stored(s, id), expected(s, url, `${site.url}/images/rock.jpg`));
  assert.deepEqual(site.hits, ['/page']);
});

test('an edit adding a link is previewed too', async (t) => {
  const { s, site } = await setup(t, { PREVIEW_ALLOW_PRIVATE: 'true' });
  const id = await send(s, 'general', 't', 'no link yet');
  const url = `${site.url}/other`;
  await s.ok('PATCH', `/api/v1/messages/${id}`, { content: url });
  await previewsDone(s);
  assert.equal(await stored(s, id), expected(s, url, `${site.url}/images/rock.jpg`));
});

test('a message edited while its preview was fetched keeps the edit; the stale preview is dropped', async (t) => {
  const { s, site } = await setup(t, { PREVIEW_ALLOW_PRIVATE: 'true' });
  const id = await send(s, 'general', 't', `${site.url}/page`);
  await s.ok('PATCH', `/api/v1/messages/${id}`, { content: 'changed my mind' });
  const before = s.published.length;
  await previewsDone(s);
  assert.equal(await stored(s, id), '<p>changed my mind</p>');
  assert.equal(s.published.slice(before).filter((p) => p.event.type === 'update_message').length, 0);
});

test('with the realm setting off (the default) nothing is fetched', async (t) => {
  const { s, site } = await setup(t, { PREVIEW_ALLOW_PRIVATE: 'true' }, false);
  const url = `${site.url}/other`;
  const id = await send(s, 'general', 't', url);
  await previewsDone(s);
  assert.equal(await stored(s, id), `<p><a href="${url}">${url}</a></p>`);
  assert.deepEqual(site.hits, []);
});

test('by default a loopback target is refused: the page is never contacted and the message stays as sent', async (t) => {
  const { s, site } = await setup(t, {});
  const url = `${site.url}/other`;
  const before = s.published.length;
  const id = await send(s, 'general', 't', url);
  await previewsDone(s);
  assert.equal(await stored(s, id), `<p><a href="${url}">${url}</a></p>`);
  assert.deepEqual(site.hits, []);
  assert.deepEqual(s.published.slice(before).filter((p) => p.event.type === 'update_message'), []);
});

test('a page with nothing to preview leaves the message as it was, with no event', async (t) => {
  const { s, site } = await setup(t, { PREVIEW_ALLOW_PRIVATE: 'true' });
  site.pages.set('/plain', { body: '<html><head><title>No image</title></head></html>' });
  const url = `${site.url}/plain`;
  const before = s.published.length;
  const id = await send(s, 'general', 't', url);
  await previewsDone(s);
  assert.equal(await stored(s, id), `<p><a href="${url}">${url}</a></p>`);
  assert.deepEqual(site.hits, ['/plain']);
  assert.deepEqual(s.published.slice(before).filter((p) => p.event.type === 'update_message'), []);
});

test('messages of bots get no website previews, as in the reference', async (t) => {
  const { s, site } = await setup(t, { PREVIEW_ALLOW_PRIVATE: 'true' });
  const res = await s.ok('POST', '/api/v1/bots', { full_name: 'Build Bot', short_name: 'build' });
  const bot = { id: res.user_id as number, email: 'build-bot@localhost', apiKey: res.api_key as string };
  const url = `${site.url}/other`;
  const id = await send(s, 'general', 't', url, bot);
  await previewsDone(s);
  assert.equal(await stored(s, id), `<p><a href="${url}">${url}</a></p>`);
  assert.deepEqual(site.hits, []);
});

test('a link posted again is previewed from what this process fetched before, without a new fetch', async (t) => {
  const { s, site } = await setup(t, { PREVIEW_ALLOW_PRIVATE: 'true' });
  const url = `${site.url}/other`;
  const first = await send(s, 'general', 't', url);
  await previewsDone(s);
  const second = await send(s, 'general', 't', url);
  await previewsDone(s);
  assert.equal(await stored(s, second), await stored(s, first));
  assert.equal(await stored(s, second), expected(s, url, `${site.url}/images/rock.jpg`));
  assert.deepEqual(site.hits, ['/other']);
});
