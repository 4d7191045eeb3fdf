// Who may fetch an uploaded file: its uploader until it is linked in a message, then also
// whoever can read one of the messages that link it.
import type { Conn } from '../db/database.ts';
import type { Attachment, User } from '../db/schema.ts';
import { attachmentByPath, linkingStreamIds, userHasLinkingMessage } from '../db/queries/attachments.ts';
import { streamsByIds, subscription } from '../db/queries/streams.ts';
import { canReadStreamMessages } from './access.ts';
import { fileNotFound } from './errors.ts';

// One answer for "no such file" and "not yours": a link's existence is not disclosed.


export async function accessUploadedFile(db: Conn, user: User, pathId: string): Promise<Attachment> {
  const a = await attachmentByPath(db, user.realm_id, pathId);
  if (!a) throw fileNotFound();
  if (a.owner_id === user.id) return a;
  if (await userHasLinkingMessage(db, user.id, a.id)) return a;
  // Messages in streams whose history the user can read, though they were not there then.
  for (const stream of await streamsByIds(db, user.realm_id, await linkingStreamIds(db, a.id))) {
    if (stream.history_public_to_subscribers && canReadStreamMessages(user, stream, await subscription(db, user.id, stream.id))) return a;
  }
  throw fileNotFound();
}
