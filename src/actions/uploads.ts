// Uploaded files: recording an upload, deleting it, and linking uploads to the messages that
// mention them (which is what lets a message's readers fetch the file).
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/database.ts';
import type { Attachment, Message, Realm, User } from '../db/schema.ts';
import {
  attachmentById,
  attachmentsByPaths,
  deleteAttachment,
  insertAttachment,
  linkAttachment,
  linkedMessages,
  uploadSpaceUsed,
  userHasLinkingMessage,
} from '../db/queries/attachments.ts';
import { badRequest } from '../lib/errors.ts';
import { newPathId, removeStoredFile, storeFile, uploadUrl, type ReceivedFile } from '../lib/uploads.ts';
import { presentAttachment } from '../presenters/attachment.ts';
import { runAction, type ActionScope } from './action.ts';

export interface UploadResult {
  uri: string;
  url: string;
  filename: string;
}

/** Records a received file as the user's upload; the file moves to its permanent place. */
export async function checkCreateAttachment(app: AppContext, user: User, realm: Realm, file: ReceivedFile): Promise<UploadResult> {
  const pathId = newPathId(realm.id, file.fileName);
  const fileName = pathId.split('/').pop()!;
  await storeFile(app.config, file, pathId);
  try {
    await runAction(app, async (scope) => {
      const row = await insertAttachment(scope.tx, {
        realm_id: realm.id,
        owner_id: user.id,
        path_id: pathId,
        file_name: fileName,
        size: file.size,
        content_type: file.contentType,
        create_time: scope.now,
      });
      const used = await uploadSpaceUsed(scope.tx, realm.id);
      scope.emit({ type: 'attachment', op: 'add', attachment: presentAttachment(row, []), upload_space_used: used }, [user.id]);
    });
  } catch (err) {
    // Not recorded, so not kept.
    await removeStoredFile(app.config, pathId);
    throw err;
  }
  const url = uploadUrl(pathId);
  return { uri: url, url, filename: fileName };
}

export async function checkDeleteAttachment(app: AppContext, user: User, attachmentId: number): Promise<void> {
  const removed = await runAction(app, async (scope) => {
    const row = await attachmentById(scope.tx, user.realm_id, attachmentId);
    if (!row || row.owner_id !== user.id) throw badRequest('Invalid attachment');
    await deleteAttachment(scope.tx, row.id);
    const used = await uploadSpaceUsed(scope.tx, user.realm_id);
    scope.emit({ type: 'attachment', op: 'remove', attachment: { id: row.id }, upload_space_used: used }, [user.id]);
    return row;
  });
  // After commit: a crash here leaves an orphan file, never a row without its file.
  await removeStoredFile(app.config, removed.path_id);
}

/** "/user_uploads/1/abc/x.txt" (as the renderer reports links) to its path_id "1/abc/x.txt". */
export function pathIdOfUploadLink(link: string): string | null {
  const m = /^\/?user_uploads\/([^?#]+)/.exec(link);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
}

/**
 * Links the uploads a new message mentions to it, inside the send's transaction. A sender may
 * link their own uploads, and re-share uploads they can already read through another message.
 * Returns the attachments linked (their owners' clients may be sent `attachment` update events).
 */
export async function claimAttachments(tx: Tx, message: Pick<Message, 'id' | 'realm_id' | 'sender_id'>, uploadPaths: readonly string[]): Promise<Attachment[]> {
  const pathIds = [...new Set(uploadPaths.map(pathIdOfUploadLink).filter((p): p is string => p !== null))];
  const claimed: Attachment[] = [];
  for (const a of await attachmentsByPaths(tx, message.realm_id, pathIds)) {
    if (a.owner_id !== message.sender_id && !(await userHasLinkingMessage(tx, message.sender_id, a.id))) continue;
    await linkAttachment(tx, a.id, message.id);
    claimed.push(a);
  }
  return claimed;
}

/** Tells each claimed upload's owner that its list of messages changed (after claimAttachments). */
export async function emitAttachmentUpdates(scope: ActionScope, realmId: number, claimed: readonly Attachment[]): Promise<void> {
  if (claimed.length === 0) return;
  const links = await linkedMessages(scope.tx, claimed.map((a) => a.id));
  const used = await uploadSpaceUsed(scope.tx, realmId);
  for (const a of claimed) {
    scope.emit({ type: 'attachment', op: 'update', attachment: presentAttachment(a, links.get(a.id) ?? []), upload_space_used: used }, [a.owner_id]);
  }
}

/** The user's uploads with the messages that link them. */
export async function attachmentsJson(app: AppContext, attachments: Attachment[]) {
  const links = await linkedMessages(app.db.kysely, attachments.map((a) => a.id));
  return attachments.map((a) => presentAttachment(a, links.get(a.id) ?? []));
}
