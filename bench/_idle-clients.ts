// The idle clients of bench/events.ts and bench/standard.ts, in a process of their own: each
// registers a queue and long-polls it, and nothing ever arrives. Kept apart so that the measuring
// client's own heap, and its garbage collector's pauses, stay those of a client of 20 pollers, not
// of 20,000 sockets. Sent `{ base, users, count }`, it answers `{ kind: 'held' }` once every poll
// is waiting; sent `'release'` afterwards, it deletes its queues (as clients that close do: left
// behind, they would stay in the server's memory and its delivery loop for the rest of a run)
// and answers `{ kind: 'released' }`. Run by those benches, not directly.
import { apiClient } from './_client.ts';

let base = '';
let polls: ReturnType<typeof apiClient> | null = null;
const held: { who: string; queue: string }[] = [];

async function hold(at: string, users: string[], count: number): Promise<void> {
  base = at;
  polls = apiClient(base);
  for (let i = 0; i < count; i++) {
    const who = users[i % users.length]!;
    const reg = await polls.call('POST', '/register', who, { event_types: ['realm_user'], fetch_event_types: [] });
    held.push({ who, queue: String(reg.body.queue_id) });
    // Held open until released or this process is killed; the answer, if any, is not wanted.
    polls.call('GET', '/events', who, { queue_id: reg.body.queue_id, last_event_id: -1 }).catch(() => undefined);
  }
  process.send!({ kind: 'held' });
}

async function release(): Promise<void> {
  // The waiting polls end with their sockets; then the queues go.
  polls?.agent.destroy();
  const { call, agent } = apiClient(base);
  for (const q of held) await call('DELETE', '/events', q.who, { queue_id: q.queue });
  agent.destroy();
  process.send!({ kind: 'released' });
}

process.on('message', (msg: { base: string; users: string[]; count: number } | 'release') => {
  void (msg === 'release' ? release() : hold(msg.base, msg.users, msg.count));
});
