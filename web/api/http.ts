// The one HTTP client of the app. In the browser it calls `/json/...` with the session cookie
// and the CSRF token from the `parley_csrf` cookie; tests point it at `/api/v1` with Basic
// credentials instead, so the same code runs against a real server from node.
export type Params = Record<string, unknown>;

export class ApiError extends Error {
  constructor(
    msg: string,
    readonly status: number,
    readonly code: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(msg);
  }
}

/** A request that never reached the server (offline, server down, aborted). */
export class NetworkError extends Error {}

export interface ApiOptions {
  /** Base URL of the JSON API: `/json` in the browser. */
  base: string;
  /** Extra headers on every request (tests: Basic auth). */
  headers?: Record<string, string>;
  /** Called when a request is refused for want of a session (it ended: logout elsewhere, expiry). */
  onUnauthorized?: () => void;
}

/** Strings go as they are, every other value JSON-encoded, as the API's other clients do. */
export function encodeParams(params: Params): URLSearchParams {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    form.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return form;
}

export function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return null;
}

export function csrfHeaders(): Record<string, string> {
  const token = readCookie('parley_csrf');
  return token ? { 'X-CSRFToken': token } : {};
}

export class Api {
  constructor(readonly opts: ApiOptions) {}

  async request<T = Record<string, unknown>>(method: string, path: string, params: Params = {}, signal?: AbortSignal): Promise<T> {
    let url = this.opts.base + path;
    const headers: Record<string, string> = { Accept: 'application/json', ...this.opts.headers };
    let body: string | undefined;
    const form = encodeParams(params);
    if (method === 'GET') {
      const qs = form.toString();
      if (qs) url += '?' + qs;
    } else {
      Object.assign(headers, csrfHeaders());
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = form.toString();
    }
    let res: Response;
    try {
      res = await fetch(url, { method, headers, body, signal, credentials: 'same-origin' });
    } catch (e) {
      if (signal?.aborted) throw e;
      throw new NetworkError(e instanceof Error ? e.message : String(e));
    }
    let json: Record<string, unknown>;
    try {
      json = (await res.json()) as Record<string, unknown>;
    } catch {
      // A proxy's error page, or the server going away mid-answer.
      if (res.status >= 500 || res.status === 0) throw new NetworkError(`HTTP ${res.status}`);
      throw new ApiError(`HTTP ${res.status}`, res.status, 'BAD_RESPONSE');
    }
    if (!res.ok || json.result !== 'success') {
      if (res.status >= 502 && res.status <= 504) throw new NetworkError(`HTTP ${res.status}`);
      if (res.status === 401 && json.code === 'UNAUTHORIZED') this.opts.onUnauthorized?.();
      throw new ApiError(String(json.msg ?? `HTTP ${res.status}`), res.status, String(json.code ?? 'BAD_REQUEST'), json);
    }
    return json as T;
  }

  get<T = Record<string, unknown>>(path: string, params?: Params, signal?: AbortSignal): Promise<T> {
    return this.request<T>('GET', path, params, signal);
  }
  post<T = Record<string, unknown>>(path: string, params?: Params): Promise<T> {
    return this.request<T>('POST', path, params);
  }
  patch<T = Record<string, unknown>>(path: string, params?: Params): Promise<T> {
    return this.request<T>('PATCH', path, params);
  }
  delete<T = Record<string, unknown>>(path: string, params?: Params): Promise<T> {
    return this.request<T>('DELETE', path, params);
  }

  /** Multipart upload with progress (fetch has no upload progress; XMLHttpRequest has). */
  upload(file: Blob, filename: string, onProgress: (fraction: number) => void): Promise<{ url: string; filename: string }> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', this.opts.base + '/user_uploads');
      for (const [k, v] of Object.entries({ Accept: 'application/json', ...this.opts.headers, ...csrfHeaders() })) xhr.setRequestHeader(k, v);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress(e.loaded / e.total);
      };
      xhr.onerror = () => reject(new NetworkError('upload failed'));
      xhr.onload = () => {
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(xhr.responseText) as Record<string, unknown>;
        } catch {
          /* handled below */
        }
        if (xhr.status === 200 && json.result === 'success') {
          resolve({ url: String(json.url ?? json.uri), filename: String(json.filename ?? filename) });
        } else {
          reject(new ApiError(String(json.msg ?? `HTTP ${xhr.status}`), xhr.status, String(json.code ?? 'BAD_REQUEST'), json));
        }
      };
      const form = new FormData();
      form.append('file', file, filename);
      xhr.send(form);
    });
  }
}
