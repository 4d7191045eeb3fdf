// Which image URLs the page may show: the CSP allows our own origin only (img-src 'self').

/**
 * Our own uploads (avatars, the organization icon) as a path on this origin, whatever host the
 * server calls itself in absolute URLs; null for anything else (an external avatar service,
 * which the CSP would block: the caller shows a letter instead).
 */
export function localImageUrl(raw: string | null | undefined, origin: string): string | null {
  if (!raw) return null;
  if (raw.startsWith('/')) return raw.startsWith('//') ? null : raw;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  return u.origin === origin || u.pathname.startsWith('/user_avatars/') ? u.pathname + u.search : null;
}
