// Website previews of linked pages: a page's Open Graph tags, with its <title>, description and
// first paragraph and image as fallbacks, or the oEmbed answer of a known video or photo host.
// Fetched with the limits of lib/outgoing.ts, off the request path (actions/link-previews.ts).
import type { EmbedData } from './markdown/types.ts';
import { outgoingGet, OutgoingError, type OutgoingOptions } from './outgoing.ts';

/**
 * oEmbed hosts whose answers are trusted: a video's `html` is a player that clients embed, so it
 * comes only from these, never from a page's own discovery link.
 */
export interface OembedProvider {
  match: RegExp;
  endpoint: string;
}

export const OEMBED_PROVIDERS: readonly OembedProvider[] = [
  { match: /^https?:\/\/(?:(?:www|m)\.)?youtube\.com\/(?:watch|v\/|embed\/|shorts\/)|^https?:\/\/youtu\.be\//i, endpoint: 'https://www.youtube.com/oembed' },
  { match: /^https?:\/\/(?:www\.)?vimeo\.com\//i, endpoint: 'https://vimeo.com/api/oembed.json' },
];

export interface PreviewFetchOptions extends Pick<OutgoingOptions, 'timeoutMs' | 'maxBytes' | 'allowPrivate'> {
  providers?: readonly OembedProvider[];
}

const MAX_TEXT = 1000;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', '#39': "'" };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+\d*);/gi, (m, body: string) => {
    const lower = body.toLowerCase();
    if (lower.startsWith('#x') || lower.startsWith('#')) {
      const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return NAMED[lower] ?? m;
  });
}

/** Text of an HTML fragment: tags dropped, entities decoded, whitespace collapsed, bounded. */
function text(fragment: string): string | undefined {
  const t = decodeEntities(fragment.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
  return t === '' ? undefined : t.slice(0, MAX_TEXT);
}

function attributes(tagSource: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const m of tagSource.matchAll(/([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/g)) {
    attrs.set(m[1]!.toLowerCase(), decodeEntities(m[2] ?? m[3] ?? m[4] ?? ''));
  }
  return attrs;
}

function absolute(url: string | undefined, base: string): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** Open Graph first; the generic parts of the page fill in what it leaves out. */
export function parsePage(html: string, pageUrl: string): EmbedData {
  const metas = [...html.matchAll(/<meta\b[^>]*>/gi)].map((m) => attributes(m[0]));
  const og = (prop: string): string | undefined => {
    const v = metas.find((a) => a.get('property') === `og:${prop}`)?.get('content');
    return v === undefined ? undefined : text(v);
  };
  const description = metas.find((a) => a.get('name')?.toLowerCase() === 'description')?.get('content');
  const title = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? /<h1\b[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  const paragraph = /<p\b[^>]*>([\s\S]*?)<\/p>/i.exec(html)?.[1];
  const img = [...html.matchAll(/<img\b[^>]*>/gi)].map((m) => attributes(m[0]).get('src')).find((src) => src !== undefined);
  return {
    title: og('title') ?? (title === undefined ? undefined : text(title)),
    description: og('description') ?? (description !== undefined ? text(description) : paragraph === undefined ? undefined : text(paragraph)),
    image: absolute(og('image') ?? img, pageUrl),
  };
}

function charsetOf(contentType: string, body: Buffer): string {
  const declared = /charset=["']?([\w-]+)/i.exec(contentType)?.[1] ?? /<meta[^>]+charset=["']?([\w-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  return declared ?? 'utf-8';
}

function decodeBody(contentType: string, body: Buffer): string {
  try {
    return new TextDecoder(charsetOf(contentType, body)).decode(body);
  } catch {
    return body.toString('utf8');
  }
}

async function oembed(url: string, provider: OembedProvider, opts: PreviewFetchOptions): Promise<EmbedData | undefined> {
  const api = new URL(provider.endpoint);
  api.searchParams.set('url', url);
  api.searchParams.set('maxwidth', '640');
  api.searchParams.set('maxheight', '480');
  api.searchParams.set('format', 'json');
  let data: Record<string, unknown>;
  try {
    const got = await outgoingGet(api.toString(), { ...opts, accept: 'application/json' });
    if (got.status !== 200) return undefined;
    data = JSON.parse(got.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const str = (k: string): string | undefined => (typeof data[k] === 'string' && data[k] !== '' ? (data[k] as string) : undefined);
  const title = str('title')?.slice(0, MAX_TEXT);
  if (data.type === 'photo') return { oembed: 'photo', title, image: absolute(str('url'), url) };
  if (data.type === 'video') {
    const html = str('html')?.replace(/^<!\[CDATA\[([\s\S]*)\]\]>$/, '$1');
    return { oembed: 'video', title, description: str('description')?.slice(0, MAX_TEXT), image: absolute(str('thumbnail_url'), url), html };
  }
  return { title };
}

/**
 * What to preview for a link, or null when there is nothing (not an HTML page, an error, a
 * refused address). Never throws.
 */
export async function fetchEmbedData(url: string, opts: PreviewFetchOptions): Promise<EmbedData | null> {
  let page;
  try {
    page = await outgoingGet(url, { ...opts, accept: 'text/html,application/xhtml+xml' });
  } catch (err) {
    if (err instanceof OutgoingError) return null;
    throw err;
  }
  if (page.status < 200 || page.status >= 300) return null;
  const type = page.contentType.split(';')[0]!.trim().toLowerCase();
  const body = decodeBody(page.contentType, page.body);
  // No content type: accepted when the body looks like HTML, as the reference sniffs it.
  if (type !== 'text/html' && type !== 'application/xhtml+xml' && !(type === '' && /^\s*<(?:!doctype html|html|head)/i.test(body))) return null;
  const provider = (opts.providers ?? OEMBED_PROVIDERS).find((p) => p.match.test(url));
  const fromProvider = provider ? await oembed(url, provider, opts) : undefined;
  if (fromProvider?.oembed !== undefined) return fromProvider;
  const data = parsePage(body, page.url);
  return { ...data, title: fromProvider?.title ?? data.title };
}
