// The markup of inline previews, as the reference writes it: images and videos linked directly,
// YouTube thumbnails (known from the URL alone), and website previews from fetched embed data
// (Open Graph, or oEmbed for video and photo hosts such as Vimeo).
import { escapeHtml, tag } from './html.ts';
import type { EmbedData } from './types.ts';

const YOUTUBE_HOSTS = new Set(['m.youtube.com', 'www.youtube.com', 'www.youtube-nocookie.com', 'youtube.com', 'youtube-nocookie.com']);
const VIDEO_ID_RE = /^[0-9A-Za-z_-]+$/;

/** The video ID of a YouTube watch, embed, shorts or youtu.be link. */
export function youtubeId(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  let id: string | undefined;
  const host = url.hostname.toLowerCase();
  if (YOUTUBE_HOSTS.has(host)) {
    const q = url.searchParams;
    if ((url.pathname === '/watch' || url.pathname === '/watch_popup') && q.has('v')) id = q.get('v') ?? undefined;
    else if (url.pathname === '/watch_videos' && q.has('video_ids')) id = (q.get('video_ids') ?? '').split(',')[0];
    else if (/^\/(?:embed|shorts|v)\//.test(url.pathname)) id = url.pathname.split('/')[2];
  } else if (host === 'youtu.be') {
    id = url.pathname.slice(1);
  }
  return id !== undefined && VIDEO_ID_RE.test(id) ? id : undefined;
}

const VIMEO_RE = /^(?:https?:\/\/(?:www\.)?vimeo\.com\/(?:channels\/(?:\w+\/)?|groups\/[^/]*\/videos\/|)(\d+)(?:|\/\?))$/;

export function vimeoId(href: string): string | undefined {
  return VIMEO_RE.exec(href)?.[1];
}

export function youtubeThumbnail(id: string): string {
  return `https://i.ytimg.com/vi/${id}/default.jpg`;
}

/** A linked image or video, or a host's thumbnail: the reference's `message_inline_image` block. */
export function inlinePreview(kind: 'image' | 'video' | 'youtube' | 'embed-video', href: string, src: string, opts: { title?: string | undefined; dataId?: string | undefined } = {}): string {
  const media = kind === 'video' ? tag('video', { preload: 'metadata', src }, '') : tag('img', { src });
  const cls = {
    image: 'message_inline_image',
    video: 'message_inline_image message_inline_video',
    youtube: 'youtube-video message_inline_image',
    'embed-video': 'embed-video message_inline_image',
  }[kind];
  return tag('div', { class: cls }, tag('a', { 'data-id': opts.dataId, href, title: opts.title }, media));
}

// A CSS url("...") value, escaped as the reference escapes it.
const cssString = (s: string): string => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ');

/**
 * The block a website preview adds at the end of the message (the reference's `message_embed`,
 * or an inline image for oEmbed photos and videos); undefined when the data has no image.
 */
export function embedPreview(href: string, data: EmbedData, proxied: (url: string) => string): string | undefined {
  if (data.image === undefined) return undefined;
  const src = proxied(data.image);
  if (data.oembed === 'photo') return inlinePreview('image', href, src, { title: data.title });
  if (data.oembed === 'video') return inlinePreview('embed-video', href, src, { title: data.title, dataId: data.html });
  const image = tag('a', { class: 'message_embed_image', href, style: `background-image: url("${cssString(src)}")` }, '');
  let details = '';
  if (data.title) details += tag('div', { class: 'message_embed_title' }, tag('a', { href, title: data.title }, escapeHtml(data.title)));
  if (data.description) details += tag('div', { class: 'message_embed_description' }, escapeHtml(data.description));
  return tag('div', { class: 'message_embed' }, image + tag('div', { class: 'data-container' }, details));
}

