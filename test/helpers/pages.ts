// Browsing the server's own HTML pages (joining, password reset) as a browser's plain forms do.
import http from 'node:http';
import { encodeParams, httpRequest, type TestServer } from './server.ts';

export interface PageResponse {
  status: number;
  text: string;
  headers: http.IncomingHttpHeaders;
  /** The `name=value` pairs of the Set-Cookie headers, as a Cookie header. */
  cookie: string;
}

/** GET (no form) or POST (a urlencoded form) of a path, or of a full link's path, with an HTML Accept. */
export async function page(s: TestServer, method: 'GET' | 'POST', pathOrUrl: string, form?: Record<string, string>, headers: Record<string, string> = {}): Promise<PageResponse> {
  const p = pathOrUrl.startsWith('http') ? new URL(pathOrUrl).pathname : pathOrUrl;
  const h: Record<string, string> = { host: new URL(s.baseUrl).host, accept: 'text/html', ...headers };
  let body: string | undefined;
  if (method === 'POST') {
    body = encodeParams(form ?? {}).toString();
    h['content-type'] = 'application/x-www-form-urlencoded';
  }
  const res = await httpRequest(s.baseUrl + p, method, h, body);
  const cookie = (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]!).join('; ');
  return { ...res, cookie };
}

/** The text of the page's alert (its error message), or null. */
export function alertText(html: string): string | null {
  const m = /<p id="form-error" class="error" role="alert">([^<]*)<\/p>/.exec(html);
  if (!m) return null;
  return m[1]!.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Whether the page has an input labelled `label` (a <label for> naming an input's id). */
export function hasLabelledInput(html: string, label: string): boolean {
  const m = new RegExp(`<label for="([^"]+)">${label}</label>`).exec(html);
  return m !== null && html.includes(`<input id="${m[1]}"`);
}
