// Realm linkifiers: a pattern (RE2 syntax with (?P<name>...) groups) and a URL template.
import type { Linkifier } from './types.ts';
import { findWebLink } from './weblinks.ts';

export interface CompiledLinkifier {
  re: RegExp;
  template: string;
}

const BEFORE = 'zlBefore';
const MATCH = 'zlMatch';
const AFTER = 'zlAfter';

const cache = new Map<string, RegExp | null>();

function compile(pattern: string): RegExp | null {
  let re = cache.get(pattern);
  if (re !== undefined) return re;
  try {
    const source = pattern.replace(/\(\?P</g, '(?<');
    // The match must stand alone: after a separator, and not followed by a letter or digit.
    re = new RegExp(`(?<${BEFORE}>^|\\s|\\u0085|\\p{Z}|['"(,:<])(?<${MATCH}>${source})(?<${AFTER}>$|[^\\p{L}\\p{N}])`, 'gu');
  } catch {
    re = null; // an invalid pattern links nothing rather than failing the message
  }
  if (cache.size > 1000) cache.clear();
  cache.set(pattern, re);
  return re;
}

export function compileLinkifiers(linkifiers: readonly Linkifier[]): CompiledLinkifier[] {
  const out: CompiledLinkifier[] = [];
  for (const l of linkifiers) {
    const re = compile(l.pattern);
    if (re) out.push({ re, template: l.urlTemplate });
  }
  return out;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

function pctEncode(value: string, allowReserved: boolean): string {
  let out = '';
  for (const ch of value) {
    if (UNRESERVED.test(ch) || (allowReserved && RESERVED.test(ch))) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

// RFC 6570 expansion of {var}, {+var} and {#var}, enough for linkifier templates.
export function expandTemplate(template: string, vars: Readonly<Record<string, string | undefined>>): string {
  return template.replace(/\{([+#]?)([A-Za-z0-9_,]+)\}/g, (_m, op: string, names: string) => {
    const values = names.split(',').map((n) => vars[n]).filter((v): v is string => v !== undefined);
    if (values.length === 0) return '';
    const body = values.map((v) => pctEncode(v, op !== '')).join(',');
    return op === '#' ? '#' + body : body;
  });
}

export interface LinkifierMatch {
  start: number; // of the linked text
  end: number;
  url: string;
}

export function findLinkifierMatch(l: CompiledLinkifier, text: string, from: number): LinkifierMatch | undefined {
  l.re.lastIndex = from;
  const m = l.re.exec(text);
  if (!m?.groups) return undefined;
  const before = m.groups[BEFORE] ?? '';
  const matched = m.groups[MATCH] ?? '';
  const start = m.index + before.length;
  return { start, end: start + matched.length, url: expandTemplate(l.template, m.groups) };
}

const SPLITTER = /[ !;),'"]/g;

// The `topic_links` of a message: linkifier matches in the topic, then web links, without overlaps.
export function topicLinks(topic: string, linkifiers: readonly Linkifier[]): { text: string; url: string }[] {
  interface M { url: string; text: string; index: number; precedence: number }
  const matches: M[] = [];
  compileLinkifiers(linkifiers).forEach((l, precedence) => {
    let pos = 0;
    while (pos < topic.length) {
      const m = findLinkifierMatch(l, topic, pos);
      if (!m) break;
      matches.push({ url: m.url, text: topic.slice(m.start, m.end), index: m.start, precedence });
      pos = Math.max(m.end, pos + 1);
    }
  });
  matches.sort((a, b) => a.precedence - b.precedence || a.index - b.index);
  let pos = 0;
  while (pos < topic.length) {
    SPLITTER.lastIndex = pos;
    const split = SPLITTER.exec(topic);
    const end = split ? split.index : topic.length;
    const link = findWebLink(topic.slice(pos, end));
    if (link) {
      const url = link.email || /^https?:\/\//.test(link.url) ? (link.email ? 'mailto:' + link.url : link.url) : 'https://' + link.url;
      matches.push({ url, text: link.url, index: pos, precedence: Number.MAX_SAFE_INTEGER });
    }
    pos = end + 1;
  }
  const applied: M[] = [];
  const overlaps = (a: M, b: M): boolean =>
    (b.index <= a.index && a.index < b.index + b.text.length) || (a.index <= b.index && b.index < a.index + a.text.length);
  for (const m of matches) if (applied.every((o) => !overlaps(o, m))) applied.push(m);
  applied.sort((a, b) => a.index - b.index);
  return applied.map((m) => ({ text: m.text, url: m.url }));
}
