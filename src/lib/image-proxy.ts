// The image proxy's URLs, as the reference's (camo): /external_content/<digest>/<hex of the URL>,
// the digest an HMAC-SHA1 of the URL under the server's key. Messages show external images
// through it, so viewers' addresses do not reach third-party hosts; the signature keeps it from
// being an open proxy: only URLs the server itself put in rendered messages are fetched.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const IMAGE_PROXY_PREFIX = '/external_content/';

const digest = (key: string, url: string): string => createHmac('sha1', key).update(url, 'utf8').digest('hex');

export function imageProxyUrl(key: string, url: string): string {
  return `${IMAGE_PROXY_PREFIX}${digest(key, url)}/${Buffer.from(url, 'utf8').toString('hex')}`;
}

/** The URL a proxy path stands for, or undefined when its signature does not match. */
export function verifyImageProxyPath(key: string, givenDigest: string, hex: string): string | undefined {
  if (!/^[0-9a-f]{40}$/.test(givenDigest) || !/^(?:[0-9a-f]{2})+$/.test(hex) || hex.length > 16384) return undefined;
  const url = Buffer.from(hex, 'hex').toString('utf8');
  const expected = Buffer.from(digest(key, url), 'hex');
  return timingSafeEqual(expected, Buffer.from(givenDigest, 'hex')) ? url : undefined;
}

/**
 * What the proxy passes on: raster images only. SVG can carry scripts, and other types could be
 * pages of the proxied site served from our origin.
 */
export const PROXY_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp', 'image/avif', 'image/apng',
  'image/x-icon', 'image/vnd.microsoft.icon', 'image/tiff',
]);
