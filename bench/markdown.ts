// Messages rendered per second on typical ~300-character messages. Run: npx tsx bench/markdown.ts
import { renderMarkdown } from '../src/lib/markdown/index.ts';
import type { MarkdownContext } from '../src/lib/markdown/types.ts';

const N = 2000;
const RUNS = 7;
const users = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing'];
const ctx: MarkdownContext = {
  realmUrl: 'https://chat.example',
  userByName: (n) => { const i = users.indexOf(n); return i < 0 ? undefined : { id: i + 1, fullName: n, email: `u${i}@example.com`, isActive: true }; },
  userById: () => undefined,
  groupByName: () => undefined,
  streamByName: (n) => (n === 'general' ? { id: 1, name: 'general' } : undefined),
  streamById: () => undefined,
  realmEmoji: () => undefined,
  linkifiers: [{ id: 1, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://tracker.example/issues/{id}' }],
};

function message(i: number): string {
  const who = users[i % users.length] ?? '';
  return `Hey @**${who}**, I looked at the *deploy* again and the **cache warmup** still takes about ${i % 90} seconds. ` +
    `The fix is in \`server/cache.ts\` (see https://example.com/pull/${i} and #${1000 + i}). ` +
    `Can we ship it today? :thumbs_up: Otherwise I'll open a thread in #**general** tomorrow morning.`;
}

const messages = Array.from({ length: N }, (_, i) => message(i));
const avgLength = messages.reduce((n, m) => n + m.length, 0) / N;
for (let i = 0; i < 200; i++) renderMarkdown(messages[i % N] ?? '', ctx); // warm up the JIT and lazy tables

const rates: number[] = [];
for (let r = 0; r < RUNS; r++) {
  const start = process.hrtime.bigint();
  for (const m of messages) renderMarkdown(m, ctx);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  rates.push(N / seconds);
}
rates.sort((a, b) => a - b);
const median = rates[Math.floor(RUNS / 2)] ?? 0;
console.log(`markdown: ${N} messages of ~${Math.round(avgLength)} chars, ${RUNS} runs`);
console.log(`median ${Math.round(median)} messages/s (min ${Math.round(rates[0] ?? 0)}, max ${Math.round(rates[RUNS - 1] ?? 0)})`);
