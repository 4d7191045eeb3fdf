// A local website for preview tests: routes answer with what a test gives them, and every
// request is counted, so a test can show that a refused address was never contacted.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Page {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Milliseconds before answering. */
  delayMs?: number;
}

export interface Site {
  url: string;
  hits: string[];
  pages: Map<string, Page>;
  close(): Promise<void>;
}

export async function startSite(pages: Record<string, Page> = {}): Promise<Site> {
  const site: Site = { url: '', hits: [], pages: new Map(Object.entries(pages)), close: async () => {} };
  const server = http.createServer((req, res) => {
    site.hits.push(req.url ?? '');
    const page = site.pages.get((req.url ?? '').split('?')[0] ?? '');
    const answer = (): void => {
      if (!page) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
        return;
      }
      res.writeHead(page.status ?? 200, page.headers ?? { 'content-type': 'text/html; charset=utf-8' });
      res.end(page.body ?? '');
    };
    if (page?.delayMs) setTimeout(answer, page.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  site.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return site;
}

/** A 1x1 PNG. */
export const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
