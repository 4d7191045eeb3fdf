// HTML escaping in the reference's style: text escapes & < > only; attributes also escape quotes.
const TEXT_RE = /[&<>]/g;
const ATTR_RE = /[&<>"]/g;
const QUOTES_RE = /[&<>"']/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

export function escapeHtml(text: string, quotes = false): string {
  return text.replace(quotes ? QUOTES_RE : TEXT_RE, (c) => ENTITIES[c] ?? c);
}

export function escapeAttr(text: string): string {
  return text.replace(ATTR_RE, (c) => ENTITIES[c] ?? c);
}

// Attributes come out in alphabetical order, like the reference's serializer.
export function tag(name: string, attrs: Record<string, string | undefined>, inner?: string): string {
  const parts = Object.keys(attrs)
    .sort()
    .filter((k) => attrs[k] !== undefined)
    .map((k) => ` ${k}="${escapeAttr(attrs[k] ?? '')}"`)
    .join('');
  return inner === undefined ? `<${name}${parts}>` : `<${name}${parts}>${inner}</${name}>`;
}
