// Requests the server makes to addresses its users give it (link previews, the image proxy).
// Such a request must not become a way into the server's own network (server-side request
// forgery): every address a host name resolves to is checked, and the connection goes to the
// address that was checked, so a name that resolves differently the second time cannot slip past.
// Redirects are followed by hand and checked the same way; time and size are bounded.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { SERVICE_VERSION } from './limits.ts';

export interface OutgoingOptions {
  /** Whole request, redirects and body included. */
  timeoutMs: number;
  maxBytes: number;
  /** Private, loopback and link-local targets (PREVIEW_ALLOW_PRIVATE); off in production. */
  allowPrivate: boolean;
  maxRedirects?: number;
  accept?: string;
}

export interface Fetched {
  /** The URL the body came from, after redirects. */
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
}

/** Why an outgoing request was not made or gave nothing usable; callers treat all alike. */
export class OutgoingError extends Error {}

const USER_AGENT = `Mozilla/5.0 (compatible; ParleyURLPreview/${SERVICE_VERSION})`;

// Addresses a request to a user-given URL must not reach: this host, private networks, link-local
// (cloud metadata services live at 169.254.169.254), carrier-grade NAT, multicast, reserved.
const blocked = new net.BlockList();
for (const [addr, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(addr, prefix, 'ipv4');
for (const [addr, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) blocked.addSubnet(addr, prefix, 'ipv6');

/** Whether an IP address is one that user-given URLs may not reach. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  // IPv4-mapped and IPv4-compatible forms reach the IPv4 address.
  const mapped = /^(?:::ffff:|::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hexMapped) {
    const hi = parseInt(hexMapped[1]!, 16);
    const lo = parseInt(hexMapped[2]!, 16);
    return blocked.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
  }
  return blocked.check(address, 'ipv6');
}

/** A DNS lookup that fails when any address of the name is refused. */
function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const refused = addresses.find((a) => !allowPrivate && isPrivateAddress(a.address));
      if (refused || addresses.length === 0) {
        return callback(new OutgoingError(`refused address for ${hostname}`), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** Checks a URL before any request: http(s) only, and an IP literal host is checked here. */
export function checkOutgoingUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutgoingError('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutgoingError('only http and https');
  if (url.username || url.password) throw new OutgoingError('no credentials in URLs');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !allowPrivate && isPrivateAddress(host)) throw new OutgoingError('refused address');
  return url;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function requestOnce(url: URL, opts: OutgoingOptions, signal: AbortSignal): Promise<Fetched | { redirect: string }> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.request(url, {
      method: 'GET',
      headers: { 'user-agent': USER_AGENT, accept: opts.accept ?? '*/*', 'accept-encoding': 'identity' },
      lookup: checkedLookup(opts.allowPrivate),
      signal,
    });
    req.on('error', (err) => reject(err instanceof OutgoingError ? err : new OutgoingError(err.message)));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status) && res.headers.location) {
        res.resume();
        return resolve({ redirect: res.headers.location });
      }
      const declared = Number(res.headers['content-length'] ?? NaN);
      if (declared > opts.maxBytes) {
        req.destroy();
        return reject(new OutgoingError('too large'));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > opts.maxBytes) {
          req.destroy();
          reject(new OutgoingError('too large'));
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', (err) => reject(new OutgoingError(err.message)));
      res.on('end', () => resolve({ url: url.toString(), status, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }));
    });
    req.end();
  });
}

/** GET a user-given URL within the limits; throws OutgoingError for anything refused or failed. */
export async function outgoingGet(raw: string, opts: OutgoingOptions): Promise<Fetched> {
  const signal = AbortSignal.timeout(opts.timeoutMs);
  let url = checkOutgoingUrl(raw, opts.allowPrivate);
  for (let hop = 0; ; hop++) {
    let got: Fetched | { redirect: string };
    try {
      got = await requestOnce(url, opts, signal);
    } catch (err) {
      throw err instanceof OutgoingError ? err : new OutgoingError(String(err));
    }
    if (!('redirect' in got)) return got;
    if (hop >= (opts.maxRedirects ?? 3)) throw new OutgoingError('too many redirects');
    let next: string;
    try {
      next = new URL(got.redirect, url).toString();
    } catch {
      throw new OutgoingError('bad redirect');
    }
    url = checkOutgoingUrl(next, opts.allowPrivate);
  }
}
