// Inline previews the renderer writes without any fetch (linked images and videos, YouTube), and
// the website previews it writes from embed data, in the reference's markup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plainContext, renderMarkdown, type EmbedData, type MarkdownContext } from '../../../src/lib/markdown/index.ts';

const proxy = (url: string): string => `/external_content/sig/${Buffer.from(url).toString('hex')}`;
const ctx = (extra: Partial<MarkdownContext> = {}): MarkdownContext => ({ ...plainContext('http://chat.example'), externalImageUrl: proxy, ...extra });
const html = (content: string, extra: Partial<MarkdownContext> = {}): string => renderMarkdown(content, ctx(extra)).html;

const YT = 'https://www.youtube.com/watch?v=eSJTXC7Ixgg';
const ytBlock = (href: string, id = 'eSJTXC7Ixgg') =>
  `<div class="youtube-video message_inline_image"><a data-id="${id}" href="${href.replace(/&/g, '&amp;')}"><img src="${proxy(`https://i.ytimg.com/vi/${id}/default.jpg`)}"></a></div>`;

test('a bare YouTube link keeps its paragraph and gets the thumbnail block after it', () => {
  assert.equal(html(YT), `<p><a href="${YT}">${YT}</a></p>\n${ytBlock(YT)}`);
  const r = renderMarkdown(YT, ctx());
  assert.equal(r.hasImage, true);
});

test('YouTube short, embed and shorts links are recognised; other hosts and bad IDs are not', () => {
  for (const href of ['https://youtu.be/eSJTXC7Ixgg', 'https://www.youtube.com/embed/eSJTXC7Ixgg', 'https://youtube.com/shorts/eSJTXC7Ixgg', 'https://m.youtube.com/watch?v=eSJTXC7Ixgg&t=3']) {
    assert.ok(html(href).includes(ytBlock(href)), href);
  }
  assert.ok(!html('https://www.youtube.com/watch?v=bad"id').includes('youtube-video'));
  assert.ok(!html('https://notyoutube.com/watch?v=eSJTXC7Ixgg').includes('youtube-video'));
});

test('a named YouTube link keeps its text; a YouTube link in a list item previews inside the item', () => {
  assert.equal(html(`[talk](${YT})`), `<p><a href="${YT}">talk</a></p>\n${ytBlock(YT)}`);
  assert.equal(html(`* see ${YT}`), `<ul>\n<li>see <a href="${YT}">${YT}</a>${ytBlock(YT)}</li>\n</ul>`);
});

test('inline_image_preview off: no image, video or YouTube previews', () => {
  const off = { imagePreviewsOff: true };
  assert.equal(html('https://img.example/a.png', off), '<p><a href="https://img.example/a.png">https://img.example/a.png</a></p>');
  assert.equal(html('https://img.example/a.mp4', off), '<p><a href="https://img.example/a.mp4">https://img.example/a.mp4</a></p>');
  assert.equal(html(YT, off), `<p><a href="${YT}">${YT}</a></p>`);
});

test('external images load through the proxy; without one there is no preview, so no client hotlinks', () => {
  assert.equal(
    html('https://img.example/a.png'),
    `<div class="message_inline_image"><a href="https://img.example/a.png"><img src="${proxy('https://img.example/a.png')}"></a></div>`,
  );
  assert.equal(renderMarkdown('https://img.example/a.png', plainContext('http://chat.example')).html, '<p><a href="https://img.example/a.png">https://img.example/a.png</a></p>');
});

test('website previews: links are listed for fetching only when the setting is on, never own-server links or quoted ones', () => {
  const content = 'https://news.example/a and http://chat.example/#narrow/stream/1 and /user_uploads/1/x.txt\n> https://quoted.example/';
  assert.deepEqual(renderMarkdown(content, ctx()).linksForPreview, []);
  assert.deepEqual(renderMarkdown(content, ctx({ urlEmbedPreview: true })).linksForPreview, ['https://news.example/a']);
  assert.deepEqual(renderMarkdown(YT, ctx({ urlEmbedPreview: true })).linksForPreview, [YT]);
});

const ROCK: EmbedData = { title: 'The Rock', description: 'Description text', image: 'http://ia.media-imdb.com/images/rock.jpg' };

test('Open Graph data renders as the reference message_embed block at the end of the message', () => {
  const data = new Map([['http://test.org/', ROCK]]);
  // The reference's own expected output (its test with the image proxy turned off).
  assert.equal(
    html('http://test.org/', { urlEmbedPreview: true, embedData: data, externalImageUrl: (u) => u }),
    '<p><a href="http://test.org/">http://test.org/</a></p>\n<div class="message_embed"><a class="message_embed_image" href="http://test.org/" style="background-image: url(&quot;http://ia.media-imdb.com/images/rock.jpg&quot;)"></a><div class="data-container"><div class="message_embed_title"><a href="http://test.org/" title="The Rock">The Rock</a></div><div class="message_embed_description">Description text</div></div></div>',
  );
  const r = renderMarkdown('http://test.org/ text', ctx({ urlEmbedPreview: true, embedData: data }));
  assert.ok(r.html.includes(`url(&quot;${proxy(ROCK.image!)}&quot;)`));
  assert.deepEqual(r.linksForPreview, []);
  assert.equal(r.hasImage, false);
});

test('embed data without an image, or null (nothing found), adds nothing', () => {
  const none = new Map<string, EmbedData | null>([['http://test.org/', null], ['http://b.org/', { title: 'T' }]]);
  assert.equal(html('http://test.org/ http://b.org/', { urlEmbedPreview: true, embedData: none }), '<p><a href="http://test.org/">http://test.org/</a> <a href="http://b.org/">http://b.org/</a></p>');
});

test('page titles and descriptions are escaped', () => {
  const data = new Map([['http://x.org/', { title: '<b>"x"</b>', description: '<script>1</script>', image: 'http://x.org/i.png' }]]);
  const out = html('http://x.org/', { urlEmbedPreview: true, embedData: data });
  assert.ok(out.includes('title="&lt;b&gt;&quot;x&quot;&lt;/b&gt;">&lt;b&gt;"x"&lt;/b&gt;</a>'), out);
  assert.ok(out.includes('&lt;script&gt;1&lt;/script&gt;'));
  assert.ok(!out.includes('<script>'));
});

test('a YouTube link with fetched data shows "YouTube - title" as its text; a named one keeps its name', () => {
  const data = new Map([[YT, { title: 'Clearer Code at Scale', image: 'https://i.ytimg.com/vi/x/hq.jpg' }]]);
  assert.equal(html(YT, { urlEmbedPreview: true, embedData: data }), `<p><a href="${YT}">YouTube - Clearer Code at Scale</a></p>\n${ytBlock(YT)}`);
  assert.equal(html(`[link](${YT})`, { urlEmbedPreview: true, embedData: data }), `<p><a href="${YT}">link</a></p>\n${ytBlock(YT)}`);
});

test('a Vimeo link with oEmbed video data gets the embed-video block and the "Vimeo - title" text', () => {
  const url = 'https://vimeo.com/158727223';
  const player = '<iframe src="https://player.vimeo.com/video/158727223" width="480" height="270" frameborder="0"></iframe>';
  const data = new Map([[url, { oembed: 'video' as const, title: 'Vimeo Test Video', image: 'https://i.vimeocdn.com/video/590587169-640x360.jpg', html: player }]]);
  const r = renderMarkdown(url, ctx({ urlEmbedPreview: true, embedData: data }));
  assert.equal(
    r.html,
    `<p><a href="${url}">Vimeo - Vimeo Test Video</a></p>\n` +
      `<div class="embed-video message_inline_image"><a data-id="${player.replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}" href="${url}" title="Vimeo Test Video"><img src="${proxy('https://i.vimeocdn.com/video/590587169-640x360.jpg')}"></a></div>`,
  );
  assert.equal(r.hasImage, true);
  // Without fetched data a Vimeo link is a plain link (its thumbnail needs the fetch).
  assert.equal(html(url), `<p><a href="${url}">${url}</a></p>`);
});

test('oEmbed photo data renders as an inline image with the title', () => {
  const url = 'https://www.flickr.com/photos/bees/2341623661/';
  const data = new Map([[url, { oembed: 'photo' as const, title: 'Bees', image: 'https://live.staticflickr.com/3123/b.jpg' }]]);
  assert.equal(
    html(url, { urlEmbedPreview: true, embedData: data }),
    `<p><a href="${url}">${url}</a></p>\n<div class="message_inline_image"><a href="${url}" title="Bees"><img src="${proxy('https://live.staticflickr.com/3123/b.jpg')}"></a></div>`,
  );
});

test('the server emoji renders as an image emoji like the reference renders :zulip:', () => {
  const out = html(':parley:', { extraEmoji: { parley: '/static/generated/emoji/images/emoji/unicode/parley.svg' } });
  assert.equal(out, '<p><img alt=":parley:" class="emoji" src="/static/generated/emoji/images/emoji/unicode/parley.svg" title="parley"></p>');
});

test('images on this server load directly; "/\\host" and non-web schemes get no preview', () => {
  assert.equal(html('[x](/static/a.png)'), '<p><a href="/static/a.png">x</a></p>\n<div class="message_inline_image"><a href="/static/a.png" title="x"><img src="/static/a.png"></a></div>');
  assert.equal(html('[x](/\\evil.example/a.png)'), '<p><a href="/\\evil.example/a.png">x</a></p>');
  assert.equal(html('[f](ftp://files.example/a.png)'), '<p><a href="ftp://files.example/a.png">f</a></p>');
});
