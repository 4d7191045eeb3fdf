// The idle clients of bench/events.ts, in a process of their own: each registers a queue and
// long-polls it, and nothing ever arrives. Kept apart so that the measuring client's own heap,
// and its garbage collector's pauses, stay those of a client of 20 pollers, not of 20,000 sockets.
// Run by bench/events.ts, not directly.
import { apiClient } from './_client.ts';

process.once('message', (msg: { base: string; users: string[]; count: number }) => {
  void (async () => {
    const { call } = apiClient(msg.base);
    for (let i = 0; i < msg.count; i++) {
      const who = msg.users[i % msg.users.length]!;
      const reg = await call('POST', '/register', who, { event_types: ['realm_user'], fetch_event_types: [] });
      // Held open until this process is killed; the answer, if any, is not wanted.
      call('GET', '/events', who, { queue_id: reg.body.queue_id, last_event_id: -1 }).catch(() => undefined);
    }
    process.send!({ kind: 'held' });
  })();
});
