// Which messages a user may read: those they received, and messages of streams whose history
// they can read.
import type { Conn, Tx } from '../db/database.ts';
import type { Message, Stream, User } from '../db/schema.ts';
import { messageById, userMessageFlags } from '../db/queries/messages.ts';
import { streamById, subscription } from '../db/queries/streams.ts';
import { canReadStreamMessages } from './access.ts';
import { badRequest } from './errors.ts';
import { FLAG_BITS } from '../db/flags.ts';

type Q = Conn | Tx;

export interface MessageAccess {
  message: Message;
  /** The user's flags; messages they never received read as `read` + `historical`. */
  flags: number;
  hasRow: boolean;
  stream: Stream | undefined;
}

export const invalidMessage = () => badRequest('Invalid message(s)');

export async function accessMessage(db: Q, user: User, messageId: number): Promise<MessageAccess> {
  const message = await messageById(db, user.realm_id, messageId);
  if (!message) throw invalidMessage();
  const flags = (await userMessageFlags(db, user.id, [message.id])).get(message.id);
  const stream = message.stream_id === null ? undefined : await streamById(db, user.realm_id, message.stream_id);
  if (flags !== undefined) return { message, flags, hasRow: true, stream };
  if (stream) {
    const sub = await subscription(db, user.id, stream.id);
    if (canReadStreamMessages(user, stream, sub) && stream.history_public_to_subscribers) {
      return { message, flags: FLAG_BITS.read | FLAG_BITS.historical, hasRow: false, stream };
    }
  }
  throw invalidMessage();
}
