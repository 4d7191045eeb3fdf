// Who has read a message, as far as the realm and each reader's settings allow telling.
import { route } from '../http/route.ts';
import { path } from '../http/params.ts';
import { id } from '../http/ids.ts';
import { messageById, userMessageFlags } from '../db/queries/messages.ts';
import { streamById, subscription } from '../db/queries/streams.ts';
import { readersOfMessage } from '../db/queries/subscriptions.ts';
import type { Conn } from '../db/database.ts';
import type { Message, User } from '../db/schema.ts';
import { canReadStreamMessages } from '../lib/access.ts';
import { badRequest } from '../lib/errors.ts';
import { parseSettings, USER_SETTING_DEFAULTS } from '../lib/settings-registry.ts';
import { realmSettings } from '../lib/realm.ts';

/** A message the user received, or one in a stream whose history they may read. */
async function accessMessageForReceipts(db: Conn, user: User, messageId: number): Promise<Message> {
  const message = await messageById(db, user.realm_id, messageId);
  if (message) {
    if ((await userMessageFlags(db, user.id, [message.id])).has(message.id)) return message;
    if (message.stream_id !== null) {
      const stream = await streamById(db, user.realm_id, message.stream_id);
      const sub = stream ? await subscription(db, user.id, stream.id) : undefined;
      if (stream && stream.history_public_to_subscribers && canReadStreamMessages(user, stream, sub)) return message;
    }
  }
  throw badRequest('Invalid message(s)');
}

export const readReceiptRoutes = [
  route({
    method: 'GET',
    path: '/messages/{message_id}/read_receipts',
    auth: 'user',
    params: { message_id: path(id()) },
    async handler({ app, realm, user, params }) {
      if (!realmSettings(realm).enable_read_receipts) throw badRequest('Read receipts are disabled in this organization.');
      const db = app.db.kysely;
      const message = await accessMessageForReceipts(db, user, params.message_id);
      // The sender is never listed; nor is anyone who turned off sending read receipts.
      const readers = await readersOfMessage(db, message.id, message.sender_id, user.id);
      return { user_ids: readers.filter((r) => parseSettings(USER_SETTING_DEFAULTS, r.settings).send_read_receipts).map((r) => r.id) };
    },
  }),
];
