// Link safety and the reference's rules for URLs in messages.

// The reference's safe schemes, less `file:` (a local file link is never useful to others).
const ALLOWED_SCHEMES = new Set([
  'http', 'https', 'ftp', 'bitcoin', 'geo', 'im', 'irc', 'ircs', 'magnet', 'mailto', 'matrix', 'mms',
  'news', 'nntp', 'openpgp4fpr', 'sip', 'sms', 'smsto', 'ssh', 'tel', 'urn', 'webcal', 'wtai', 'xmpp',
]);

const SCHEME_RE = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

// Returns the href to use, or undefined when the URL must not become a link.
export function sanitizeUrl(raw: string): string | undefined {
  // Browsers drop control characters and tabs inside a URL, so "java\tscript:" is dropped here too.
  // eslint-disable-next-line no-control-regex
  const url = raw.trim().replace(/[\u0000-\u001f\u007f]/g, '').replace(/ /g, '%20');
  if (url === '') return undefined;
  const m = SCHEME_RE.exec(url);
  if (!m) {
    if (url.startsWith('//')) return 'http:' + url;
    if (url.startsWith('/') || url.startsWith('#')) return url;
    const slash = url.indexOf('/');
    const at = url.indexOf('@');
    if (at >= 0 && (slash < 0 || at < slash)) return 'mailto:' + url;
    return 'http://' + url;
  }
  const scheme = (m[1] ?? '').toLowerCase();
  if (!ALLOWED_SCHEMES.has(scheme)) return undefined;
  return url;
}

// Links into this realm's web app or its uploads become relative, as the reference does.
export function relativeToRealm(href: string, realmUrl: string): string {
  const prefix = realmUrl.replace(/\/+$/, '') + '/';
  if (href.startsWith(prefix + '#') || href.startsWith(prefix + 'user_uploads/')) return href.slice(prefix.length);
  return href;
}

// Percent-encoding for narrow URLs: every byte but [A-Za-z0-9_.~-], then '.' -> '.2E' and '%' -> '.'.
export function hashUtilEncode(text: string): string {
  const quoted = encodeURIComponent(text).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  return quoted.replace(/\./g, '.2E').replace(/%/g, '.');
}

export function encodeStream(id: number, name: string): string {
  return `${id}-${hashUtilEncode(name.replace(/ /g, '-'))}`;
}
