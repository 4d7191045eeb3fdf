// The made-up content of the standard organization (bench/generate.ts): deterministic random
// numbers, names, stream sizes, topics and message texts. No database here.
import { escapeHtml } from '../src/lib/markdown/html.ts';

/** Deterministic pseudo-random numbers (mulberry32), so that every build is the same. */
export function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const rand = seeded(19);
export const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

const FIRST = ['Ada', 'Grace', 'Alan', 'Linus', 'Barbara', 'Ken', 'Margaret', 'Dennis', 'Frances', 'John', 'Radia', 'Edsger', 'Hedy', 'Tim', 'Katherine', 'Donald', 'Sophie', 'Niklaus', 'Joan', 'Guido', 'Mary', 'Bjarne', 'Carol', 'Leslie', 'Annie', 'Brian', 'Lynn', 'Rob', 'Shafi', 'Yukihiro', 'Adele', 'James', 'Jean', 'Larry', 'Evelyn', 'Fernando', 'Kathleen', 'Butler', 'Elena', 'Ivan'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Torvalds', 'Liskov', 'Thompson', 'Hamilton', 'Ritchie', 'Allen', 'Backus', 'Perlman', 'Dijkstra', 'Lamarr', 'Berners', 'Johnson', 'Knuth', 'Wilson', 'Wirth', 'Clarke', 'Rossum', 'Keller', 'Stroustrup', 'Shaw', 'Lamport', 'Easley', 'Kernighan', 'Conway', 'Pike', 'Goldwasser', 'Matsumoto', 'Goldberg', 'Gosling', 'Sammet', 'Page', 'Boyd', 'Corbato', 'Booth', 'Lampson', 'Garcia', 'Sutherland'];

/** Unique full names (mentions find people by name). */
export function fullName(i: number): string {
  const first = FIRST[i % FIRST.length]!;
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!;
  const round = Math.floor(i / (FIRST.length * LAST.length));
  return round === 0 ? `${first} ${last}` : `${first} ${last} ${round + 1}`;
}

const AREAS = ['backend', 'frontend', 'design', 'mobile', 'infra', 'security', 'data', 'support', 'sales', 'marketing', 'docs', 'api', 'billing', 'search', 'growth', 'qa', 'release', 'legal', 'hiring', 'finance', 'ops', 'research', 'platform', 'android', 'ios', 'web', 'devrel', 'partners', 'events', 'social'];
const KINDS = ['team', 'dev', 'help', 'chat', 'ideas', 'alerts', 'reviews', 'planning'];

export function streamName(i: number): string {
  const area = AREAS[i % AREAS.length]!;
  const kind = KINDS[Math.floor(i / AREAS.length) % KINDS.length]!;
  const round = Math.floor(i / (AREAS.length * KINDS.length));
  return round === 0 ? `${area} ${kind}` : `${area} ${kind} ${round + 1}`;
}

// A vocabulary with a Zipf-like use: a few words are common, most are rare (bench/messages.ts
// searches the made-up words).
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vi', 'so', 'pe', 'da', 'fu', 'ge', 'hi', 'jo', 'be', 'zo'];
const COMMON = ['the', 'we', 'it', 'is', 'to', 'and', 'a', 'for', 'this', 'that', 'on', 'in', 'deploy', 'build', 'review', 'test', 'fix', 'today', 'tomorrow', 'cache', 'release', 'meeting', 'bug', 'server', 'client', 'thanks', 'yes', 'maybe', 'think', 'should'];
/** 5,000 words made of syllables, the most used first. */
export const MADE_UP_WORDS = Array.from({ length: 5000 }, (_, i) => {
  let w = '';
  let n = i + 17;
  do {
    w += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return w;
});
export const VOCAB = [...COMMON, ...MADE_UP_WORDS];
/** A word of `words` drawn with a Zipf-like skew toward its start. */
export const zipfWord = (words: readonly string[], random: () => number = rand): string => words[Math.min(words.length - 1, Math.floor(Math.pow(random(), 2.5) * words.length))]!;
const word = () => zipfWord(VOCAB);

/** A plain sentence of words; its Markdown is one paragraph of the same text. */
export function plainText(): string {
  const n = 4 + Math.floor(Math.pow(rand(), 1.5) * 40);
  const words = Array.from({ length: n }, word);
  words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
  return `${words.join(' ')}${pick(['.', '.', '.', '?', '!'])}`;
}

/** The renderer's output for plainText(): checked against the real renderer at each build. */
export const plainHtml = (text: string): string => `<p>${escapeHtml(text)}</p>`;

/** Messages with Markdown (rendered by the real renderer): mentions, code, links, quotes, emoji. */
export function richText(mention: string, stream: string): string {
  switch (Math.floor(rand() * 8)) {
    case 0:
      return `@**${mention}** ${plainText()}`;
    case 1:
      return `${plainText()}\n\`\`\`ts\nconst cache = new Map<string, number>();\nfor (const [k, v] of entries) cache.set(k, v * ${Math.floor(rand() * 100)});\n\`\`\``;
    case 2:
      return `See https://example.com/issues/${Math.floor(rand() * 10000)} ${plainText()}`;
    case 3:
      return `> ${plainText()}\n\n${plainText()} :thumbs_up:`;
    case 4:
      return `- ${plainText()}\n- ${plainText()}\n- **${word()}** \`${word()}\``;
    case 5:
      return `Moving this to #**${stream}**: ${plainText()}`;
    case 6:
      return `@**${mention}** can you look at \`${word()}.ts\`? ${plainText()} :smile:`;
    default:
      return `*${plainText()}* ${plainText()}`;
  }
}

export function topicName(): string {
  return Math.floor(rand() * 4) === 0 ? `${word()} ${word()} #${Math.floor(rand() * 900) + 100}` : `${word()} ${word()}`;
}

export const REACTIONS: readonly [name: string, code: string][] = [
  ['thumbs_up', '1f44d'],
  ['smile', '1f642'],
  ['big_smile', '1f604'],
];

export type Tier = 'everyone' | 'fifty' | 'team' | 'area' | 'large';

export interface StreamPlan {
  name: string;
  tier: Tier;
  size: number;
  /** Relative share of the stream messages. */
  weight: number;
  inviteOnly: boolean;
}

/**
 * Stream sizes as in a real organization of this size: most streams are small team streams that
 * carry most of the traffic; a fifth are areas of 50-200 people, a few are large and quiet;
 * everyone is in the first stream (the realm's `general`), which gets few messages. The second
 * stream has exactly 50 subscribers (issue 19's send target).
 */
export function planStreams(streams: number, users: number): StreamPlan[] {
  const plans: StreamPlan[] = [
    { name: 'general', tier: 'everyone', size: users, weight: 0.4, inviteOnly: false },
    { name: 'engineering', tier: 'fifty', size: Math.min(50, users), weight: 1, inviteOnly: false },
  ];
  for (let i = 2; i < streams; i++) {
    const r = rand();
    const tier: Tier = r < 0.75 ? 'team' : r < 0.95 ? 'area' : 'large';
    const size =
      tier === 'team' ? 4 + Math.floor(36 * Math.pow(rand(), 2)) : tier === 'area' ? 50 + Math.floor(150 * rand()) : 300 + Math.floor(300 * rand());
    const weight = tier === 'team' ? 0.3 + 1.4 * rand() : tier === 'area' ? 0.15 + 0.3 * rand() : 0.05 + 0.1 * rand();
    plans.push({ name: streamName(i - 2), tier, size: Math.min(size, users), weight, inviteOnly: tier === 'team' && rand() < 0.15 });
  }
  return plans;
}

/** `k` distinct numbers below `n`, not containing `must` more than once (which is put first). */
export function sample(n: number, k: number, must: number[] = []): number[] {
  const chosen = new Set(must.slice(0, k));
  while (chosen.size < k) chosen.add(Math.floor(rand() * n));
  return [...chosen];
}

/** A picker over weights: returns an index in proportion to its weight. */
export function weighted(weights: number[]): () => number {
  const cumulative: number[] = [];
  let sum = 0;
  for (const w of weights) cumulative.push((sum += w));
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}
