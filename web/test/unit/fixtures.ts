// Messages as the API sends them, for the store's tests: from Alice (user 11) in general (stream
// 1), topic "lunch", unread, unless told otherwise.
import type { Message } from '../../store/types.ts';

export const ALICE = 11;

export function streamMessage(id: number, opts: Partial<Message> = {}): Message {
  return {
    id,
    sender_id: ALICE,
    sender_full_name: 'Alice',
    sender_email: 'alice@example.com',
    avatar_url: null,
    timestamp: 1_700_000_000 + id,
    content: `<p>m${id}</p>`,
    subject: 'lunch',
    type: 'stream',
    stream_id: 1,
    display_recipient: 'general',
    reactions: [],
    flags: [],
    ...opts,
  };
}

export function dmMessage(id: number, users: number[], sender = ALICE, opts: Partial<Message> = {}): Message {
  return streamMessage(id, {
    type: 'private',
    stream_id: undefined,
    subject: '',
    sender_id: sender,
    display_recipient: users.map((u) => ({ id: u, email: `${u}@example.com`, full_name: String(u) })),
    ...opts,
  });
}
