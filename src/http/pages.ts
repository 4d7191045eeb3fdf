// The few pages the server renders itself (joining, password reset): plain HTML forms that work
// without the web app, under the app's Content-Security-Policy (no inline script), with a small
// stylesheet of their own.
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { CONTENT_SECURITY_POLICY } from './web-app.ts';

const STYLESHEET = fs.readFileSync(new URL('../../resources/pages.css', import.meta.url));
const STYLESHEET_ETAG = `"${createHash('sha256').update(STYLESHEET).digest('base64url').slice(0, 16)}"`;
export const STYLESHEET_PATH = '/static/pages.css';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** A labelled input; `error` marks it invalid and points at the form's error message. */
export interface Field {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  value?: string;
  autocomplete: string;
  readonly?: boolean;
}

export function fieldHtml(f: Field, hasError: boolean): string {
  const attrs = [
    `id="${esc(f.name)}"`,
    f.readonly ? '' : `name="${esc(f.name)}"`,
    `type="${f.type ?? 'text'}"`,
    `autocomplete="${esc(f.autocomplete)}"`,
    f.value ? `value="${esc(f.value)}"` : '',
    f.readonly ? 'readonly' : 'required',
    hasError && !f.readonly ? 'aria-invalid="true" aria-describedby="form-error"' : '',
  ].filter((a) => a !== '');
  return `<label for="${esc(f.name)}">${esc(f.label)}</label>\n<input ${attrs.join(' ')}>`;
}

export function formHtml(action: string, fields: Field[], button: string, error: string | null): string {
  const err = error ? `<p id="form-error" class="error" role="alert">${esc(error)}</p>\n` : '';
  return `${err}<form method="post" action="${esc(action)}">\n${fields.map((f) => fieldHtml(f, error !== null)).join('\n')}\n<button type="submit">${esc(button)}</button>\n</form>`;
}

/** A line under a form that leads back to the login page (the web app's), for whoever came here by mistake. */
export function loginLinkHtml(kind: 'back' | 'have-account'): string {
  return kind === 'back' ? '<p class="links"><a href="/">Back to log in</a></p>' : '<p class="links">Already have an account? <a href="/">Log in</a></p>';
}

/** A whole page around `body` (already HTML). */
export function pageHtml(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${esc(title)}</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** Answers a page. Its URL may hold a secret (a link's key): not cached, not sent on as a referrer. */
export function sendPage(reply: FastifyReply, status: number, title: string, body: string): void {
  void reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .send(pageHtml(title, body));
}

export function sendStylesheet(reply: FastifyReply, ifNoneMatch: string | undefined): void {
  void reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').header('etag', STYLESHEET_ETAG);
  if (ifNoneMatch === STYLESHEET_ETAG) {
    void reply.code(304).send();
    return;
  }
  void reply.code(200).send(STYLESHEET);
}
